import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { FeedCursor } from '../../../common/post-schemas';
import type { DB } from '../../../core/db/kysely';
import type { Database } from '../../../core/db/schema';
import { verifiedBadge } from '../../../domain/access/verified-badge';
import { viewerSubscribedColumn, viewerUnlockedColumn } from '../../../domain/access/access';

/*
 * Post cards, as every list of posts shows them (the feed, a profile's Content and Drafts,
 * bookmarks, Explore, one post): a feature picks the keys of its page, `cardsOf` makes them whole
 * in the same statement. Their mapping to DTOs is post-cards.ts.
 */

/** created_at to the microsecond, as the ISO string a cursor carries (a JS Date keeps only ms). */
const isoMicros = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The keys of one page of posts, as every post list picks them: the posts' ids and the time the
 * list is ordered by (`sort_at` descending, the id breaking ties), filtered, after the cursor and
 * LIMITed. `cardsOf` turns them into cards.
 */
export type PageKeys = SelectQueryBuilder<Database, never, { id: string; sort_at: Date }>;

/** Posts with their creator's privacy setting as `ps`, which the access rule's SQL reads. */
export const postsWithPrivacy = (db: DB) => db.selectFrom('posts').leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id');

/**
 * A page of post cards, whole in one statement: the page's posts (`page`, decided first, so that
 * what follows runs for its rows only), each with its creator's card and privacy setting, the
 * three counts, the viewer's liked and bookmarked, the viewer's entitlement as the access rule
 * asks for it (`viewerSubscribedColumn`; the rule itself is applied by the service with
 * `postAccess`, domain/access/access.ts) and the stored media variants. The per-post columns are
 * index lookups on (post_id[, user_id]) for the page's few rows.
 */
export function cardsOf(db: DB, viewerId: string | null, page: PageKeys, ascending = false) {
  return cardsQuery(db, viewerId, page, ascending).execute();
}

/** `cardsOf`'s statement, not yet run: for a list compiled once per shape (core/db/statement-shape.ts). */
export function cardsQuery(db: DB, viewerId: string | null, page: PageKeys, ascending = false) {
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
      'posts.unlock_price_cents',
      'posts.unlock_mode',
      'posts.pinned_at',
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
        viewerUnlockedColumn(viewerId).as('viewer_unlocked'),
        jsonArrayFrom(
          eb
            .selectFrom('media_files as m')
            .select(['m.position', 'm.variant', 'm.content_type', 'm.byte_size', 'm.width', 'm.height', 'm.duration_seconds'])
            .whereRef('m.post_id', '=', 'posts.id')
            .orderBy('m.position'),
        ).as('media'),
      ];
    })
    .orderBy('page.sort_at', ascending ? 'asc' : 'desc')
    .orderBy('page.id', ascending ? 'asc' : 'desc');
}

export type PostCardRow = Awaited<ReturnType<typeof cardsOf>>[number];

/**
 * Published lists are ordered by when a post was published (a draft published today is today's
 * post); drafts by when they were made. `sort_at` is that time, and a cursor pages after it.
 */
export type SortColumn = 'posts.published_at' | 'posts.created_at' | 'posts.publish_at';
export const PUBLISHED_ORDER: SortColumn = 'posts.published_at';

/** After the cursor: older first for every list but the scheduled posts (`ascending`: the soonest first). */
export const pageAfter = (cursor: FeedCursor, column: SortColumn = PUBLISHED_ORDER, ascending = false) =>
  sql<SqlBool>`(${sql.ref(column)}, posts.id) ${sql.raw(ascending ? '>' : '<')} (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;

/** The page's key columns of a published list (published_at is set on every published post: posts_published_at_check). */
export const publishedKeys = ['posts.id', sql<Date>`posts.published_at`.as('sort_at')] as const;
