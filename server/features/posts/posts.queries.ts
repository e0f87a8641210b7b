import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { FeedCursor } from '../../../common/post-schemas';
import type { DB } from '../../../core/db/kysely';
import type { Database } from '../../../core/db/schema';
import { verifiedBadge } from '../../../domain/access/verified-badge';
import { viewerSubscribedColumn, visiblePostWhere } from '../../../domain/access/access';

/** created_at to the microsecond, as the ISO string a cursor carries (a JS Date keeps only ms). */
const isoMicros = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The keys of one page of posts, as every post list picks them: the posts' ids and the time the
 * list is ordered by (`sort_at` descending, the id breaking ties), filtered, after the cursor and
 * LIMITed. `cardsOf` turns them into cards.
 */
type PageKeys = SelectQueryBuilder<Database, never, { id: string; sort_at: Date }>;

/** Posts with their creator's privacy setting as `ps`, which the access rule's SQL reads. */
const postsWithPrivacy = (db: DB) => db.selectFrom('posts').leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id');

/**
 * A page of post cards, whole in one statement: the page's posts (`page`, decided first, so that
 * what follows runs for its rows only), each with its creator's card and privacy setting, the
 * three counts, the viewer's liked and bookmarked, the viewer's entitlement as the access rule
 * asks for it (`viewerSubscribedColumn`; the rule itself is applied by the service with
 * `postAccess`, domain/access/access.ts) and the stored media variants. The per-post columns are
 * index lookups on (post_id[, user_id]) for the page's few rows.
 */
function cardsOf(db: DB, viewerId: string | null, page: PageKeys, ascending = false) {
  return db
    .selectFrom(page.as('page'))
    .innerJoin('posts', 'posts.id', 'page.id')
    .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select([
      'posts.id',
      'posts.creator_id',
      'posts.title',
      'posts.post_text',
      'posts.hashtags',
      'posts.is_premium',
      'posts.is_nsfw',
      'posts.status',
      'posts.media_kind',
      'posts.original_filename',
      'posts.created_at',
      'posts.publish_at',
      'pr.username',
      'pr.display_name',
      'pr.avatar_url',
      verifiedBadge('pr').as('verified_badge'),
      'pr.is_premium as creator_is_premium',
      'ps.profile_visibility',
      isoMicros('page.sort_at').as('cursor_at'),
    ])
    .select((eb) => {
      const count = (table: 'post_likes' | 'comments' | 'bookmarks') =>
        eb.selectFrom(table).select(eb.fn.countAll<string>().as('n')).whereRef(`${table}.post_id`, '=', 'posts.id');
      const viewers = (table: 'post_likes' | 'bookmarks') =>
        viewerId
          ? eb.exists(eb.selectFrom(table).select(`${table}.post_id`).whereRef(`${table}.post_id`, '=', 'posts.id').where(`${table}.user_id`, '=', viewerId))
          : eb.lit(false);
      return [
        count('post_likes').as('likes'),
        count('comments').as('comments'),
        count('bookmarks').as('bookmarks'),
        viewers('post_likes').as('liked'),
        viewers('bookmarks').as('bookmarked'),
        viewerSubscribedColumn(viewerId).as('viewer_subscribed'),
        jsonArrayFrom(
          eb
            .selectFrom('media_files as m')
            .select(['m.variant', 'm.content_type', 'm.byte_size', 'm.width', 'm.height', 'm.duration_seconds'])
            .whereRef('m.post_id', '=', 'posts.id'),
        ).as('media'),
      ];
    })
    .orderBy('page.sort_at', ascending ? 'asc' : 'desc')
    .orderBy('page.id', ascending ? 'asc' : 'desc')
    .execute();
}

export type PostCardRow = Awaited<ReturnType<typeof cardsOf>>[number];

/**
 * Published lists are ordered by when a post was published (a draft published today is today's
 * post); drafts by when they were made. `sort_at` is that time, and a cursor pages after it.
 */
type SortColumn = 'posts.published_at' | 'posts.created_at' | 'posts.publish_at';
const PUBLISHED_ORDER: SortColumn = 'posts.published_at';

/** After the cursor: older first for every list but the scheduled posts (`ascending`: the soonest first). */
const pageAfter = (cursor: FeedCursor, column: SortColumn = PUBLISHED_ORDER, ascending = false) =>
  sql<SqlBool>`(${sql.ref(column)}, posts.id) ${sql.raw(ascending ? '>' : '<')} (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;

/** The page's key columns of a published list (published_at is set on every published post: posts_published_at_check). */
const publishedKeys = ['posts.id', sql<Date>`posts.published_at`.as('sort_at')] as const;

/**
 * One feed page: published posts visible to the viewer, newest published first, after the cursor.
 * Walks posts_feed_idx (published_at desc, id desc where published) and stops after `limit` rows.
 */
export function findFeedPage(db: DB, opts: { viewerId: string | null; cursor: FeedCursor | null; limit: number }) {
  const { cursor } = opts;
  const page = postsWithPrivacy(db)
    .select(publishedKeys)
    .where('posts.status', '=', 'published')
    .where(visiblePostWhere(opts.viewerId))
    .$if(cursor !== null, (q) => q.where(pageAfter(cursor!)))
    .orderBy('posts.published_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(opts.limit);
  return cardsOf(db, opts.viewerId, page);
}

/** The user's bookmarked posts that are visible to them, newest bookmark first, after the cursor. */
export function findBookmarkedPage(db: DB, opts: { userId: string; cursor: FeedCursor | null; limit: number }) {
  const { cursor } = opts;
  const page = postsWithPrivacy(db)
    .innerJoin('bookmarks as b', (j) => j.onRef('b.post_id', '=', 'posts.id').on('b.user_id', '=', opts.userId))
    .select(['posts.id', 'b.created_at as sort_at'])
    .where(visiblePostWhere(opts.userId))
    .$if(cursor !== null, (q) =>
      q.where(sql<SqlBool>`(b.created_at, b.post_id) < (${cursor!.createdAt}::timestamptz, ${cursor!.id}::uuid)`),
    )
    .orderBy('b.created_at', 'desc')
    .orderBy('b.post_id', 'desc')
    .limit(opts.limit);
  return cardsOf(db, opts.userId, page);
}

/** Posts by id whatever their state, as cards for the viewer; the caller decides with the access rule. */
export function findPostCardsByIds(db: DB, viewerId: string | null, postIds: string[]) {
  return cardsOf(db, viewerId, db.selectFrom('posts').select(['posts.id', 'posts.created_at as sort_at']).where('posts.id', 'in', postIds));
}

/** Likes once: a second like changes nothing. True when a row was added. */
export async function insertLike(db: DB, postId: string, userId: string): Promise<boolean> {
  const result = await db
    .insertInto('post_likes')
    .values({ post_id: postId, user_id: userId })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when a like was removed. */
export async function deleteLike(db: DB, postId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('post_likes').where('post_id', '=', postId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countLikes(db: DB, postId: string): Promise<number> {
  const row = await db
    .selectFrom('post_likes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the media route needs: the post's access facts, its name (title, creator), and the asked variant if stored. */
export function findMediaRequest(db: DB, postId: string, variant: string) {
  return db
    .selectFrom('posts')
    .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .leftJoin('media_files as m', (j) => j.onRef('m.post_id', '=', 'posts.id').on('m.variant', '=', variant as never))
    .select([
      'posts.id',
      'posts.creator_id',
      'posts.status',
      'posts.is_premium',
      'posts.title',
      'pr.username',
      'pr.display_name',
      'ps.profile_visibility',
      'm.id as file_id',
      'm.storage_key',
      'm.content_type',
      'm.byte_size',
    ])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
}

/** The kinds the Content tab's media view shows (spec part 1 §9: 'Media tab counts image and video types'). */
export const MEDIA_TAB_KINDS = ['image', 'video'] as const;

/**
 * Search within one creator's posts: the stemmed words of the text and hashtags through the
 * `search` tsvector, or, for a single word with or without '#', the exact hashtag (which also
 * finds tags the text parser drops, such as stop words).
 */
export function textOrHashtagWhere(q: string) {
  const tag = q.replace(/^#+/, '').toLowerCase();
  const text = sql<SqlBool>`posts.search @@ websearch_to_tsquery('english', ${q})`;
  if (!/^[\p{L}\p{N}_]+$/u.test(tag)) return text;
  return sql<SqlBool>`(${text} or posts.hashtags @> array[${tag}]::text[])`;
}

/**
 * One page of one creator's posts in one status ('published' for the Content tab, newest
 * published first, walking posts_creator_published_idx; 'draft' for the owner's Drafts tab,
 * newest made first, walking posts_creator_idx; 'scheduled' for the owner's Scheduled tab, the
 * soonest to be published first), through the access rule; stops after `limit` rows.
 */
export function findCreatorPostsPage(
  db: DB,
  opts: {
    creatorId: string;
    viewerId: string | null;
    status: 'published' | 'draft' | 'scheduled';
    mediaOnly?: boolean;
    q?: string | null;
    cursor: FeedCursor | null;
    limit: number;
  },
) {
  const { cursor, q } = opts;
  const order: SortColumn = opts.status === 'published' ? PUBLISHED_ORDER : opts.status === 'scheduled' ? 'posts.publish_at' : 'posts.created_at';
  const ascending = opts.status === 'scheduled';
  const page = postsWithPrivacy(db)
    .select(['posts.id', sql<Date>`${sql.ref(order)}`.as('sort_at')])
    .where('posts.creator_id', '=', opts.creatorId)
    .where('posts.status', '=', opts.status)
    .where(visiblePostWhere(opts.viewerId))
    .$if(opts.mediaOnly === true, (b) => b.where('posts.media_kind', 'in', MEDIA_TAB_KINDS))
    .$if(Boolean(q), (b) => b.where(textOrHashtagWhere(q!)))
    .$if(cursor !== null, (b) => b.where(pageAfter(cursor!, order, ascending)))
    .orderBy(order, ascending ? 'asc' : 'desc')
    .orderBy('posts.id', ascending ? 'asc' : 'desc')
    .limit(opts.limit);
  return cardsOf(db, opts.viewerId, page, ascending);
}

/** `q` as a LIKE pattern for "contains", its wildcards taken literally. */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One Explore page: published posts of creators everyone may see (private and hidden never,
 * not even to their owner), newest published first, keyset-paged on (published_at, id).
 *
 * - `categories`: the creator has any of them (`categories && array[...]`, profiles_categories_idx).
 * - `q`: the creator's username or display name contains it in any case (the trigram indexes on
 *   lower(username) and lower(display_name)), or the post's text matches its stemmed words (the
 *   GIN index on `search`).
 *
 * With `q`, each of the two matches is its own index-driven branch that stops at `limit` rows
 * after the cursor, and the page is the newest `limit` of their union: an OR across two tables
 * in one WHERE would leave the planner nothing but a walk over every published post.
 */
export function findExplorePage(
  db: DB,
  opts: { viewerId: string | null; q: string | null; categories: readonly string[]; cursor: FeedCursor | null; limit: number },
) {
  const { q, categories, cursor, limit } = opts;
  const newestFirst = <Q extends PageKeys>(query: Q) => query.orderBy('sort_at', 'desc').orderBy('id', 'desc').limit(limit);
  const filtered = () =>
    postsWithPrivacy(db)
      .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
      .select(publishedKeys)
      .where('posts.status', '=', 'published')
      .where(visiblePostWhere(null))
      .$if(categories.length > 0, (b) => b.where(sql<SqlBool>`pr.categories && array[${sql.join(categories)}]::text[]`))
      .$if(cursor !== null, (b) => b.where(pageAfter(cursor!)));

  if (!q) return cardsOf(db, opts.viewerId, newestFirst(filtered()));
  const pattern = containsPattern(q);
  const byCreator = newestFirst(filtered().where(sql<SqlBool>`(lower(pr.username) like lower(${pattern}) or lower(pr.display_name) like lower(${pattern}))`));
  const byText = newestFirst(filtered().where(sql<SqlBool>`posts.search @@ websearch_to_tsquery('english', ${q})`));
  const hits = db
    .selectFrom(byCreator.as('by_creator'))
    .selectAll()
    .union(db.selectFrom(byText.as('by_text')).selectAll());
  return cardsOf(db, opts.viewerId, newestFirst(db.selectFrom(hits.as('hits')).select(['hits.id', 'hits.sort_at'])));
}
