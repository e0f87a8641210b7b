import { sql, type SqlBool } from 'kysely';
import type { FeedCursor } from '../../../common/post-schemas';
import type { CustomLink, SocialLinks } from '../../../core/db/schema';
import type { DB } from '../../../core/db/kysely';
import { personColumns } from '../../../domain/people/person-columns';
import { activeSubscriberCount, activeSubscriptionExists } from '../../../domain/subscriptions/active';
import { MAX_PINNED_POSTS } from '../../../common/post-unlock';
import { statementShape } from '../../../core/db/statement-shape';
import { cardsQuery, pageAfter, PUBLISHED_ORDER, type SortColumn } from '../../shared/post-cards/post-cards.queries';

/**
 * The /{username} header in one statement: the profile, its privacy setting, its counts (active
 * subscribers, published posts, published image and video posts, and the owner's drafts), and the
 * viewer's Subscribed state. Each count is on one creator's index entries
 * (subscriptions_tier_active_idx through the creator's tiers, posts_creator_idx).
 */
export function findProfileHeader(db: DB, username: string, viewerId: string | null) {
  const draftCount = viewerId
    ? sql<string | null>`case when pr.id = ${viewerId} then (select count(*) from posts d where d.creator_id = pr.id and d.status = 'draft') end`
    : sql<string | null>`null::bigint`;
  // Subscribed: the very test the access rule unlocks premium posts by, so the button never says
  // Subscribed while the posts stay locked (nor the other way round)
  const isSubscribed = viewerId ? activeSubscriptionExists(viewerId, 'pr.id') : sql<boolean>`false`;
  return db
    .selectFrom('profiles as pr')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
    .select([
      ...personColumns('pr'),
      'pr.bio',
      'pr.categories',
      'pr.is_creator',
      'pr.custom_links',
      'pr.social_links',
      'pr.upgrade_card_dismissed',
      'ps.profile_visibility',
    ])
    .select((eb) => [
      activeSubscriberCount('pr.id').as('subscriber_count'),
      eb
        .selectFrom('posts as p')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('p.creator_id', '=', 'pr.id')
        .where('p.status', '=', 'published')
        .as('post_count'),
      eb
        .selectFrom('posts as m')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('m.creator_id', '=', 'pr.id')
        .where('m.status', '=', 'published')
        .where('m.media_kind', 'in', MEDIA_TAB_KINDS)
        .as('media_count'),
      draftCount.as('draft_count'),
      isSubscribed.as('is_subscribed'),
      // a tier a new fan can choose (not archived): without one there is nothing to subscribe to
      eb
        .exists(eb.selectFrom('subscription_tiers as t').select('t.id').whereRef('t.creator_id', '=', 'pr.id').where('t.archived_at', 'is', null))
        .as('has_tier'),
    ])
    .where('pr.username', '=', username)
    .executeTakeFirst();
}

/** Who a username is and who may see it (the Content tab's first step; a 'friends' profile needs the viewer's subscription). */
export async function findProfileVisibility(db: DB, username: string, viewerId: string | null) {
  return (await profileVisibility(db, { username, viewerId }))[0];
}

// asked before every page of a profile's posts: compiled once per shape (signed in or not)
const profileVisibility = statementShape((db, { username, viewerId }: { username: string; viewerId: string | null }) =>
  db
    .selectFrom('profiles as pr')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
    .select(['pr.id', 'ps.profile_visibility'])
    .select((viewerId ? activeSubscriptionExists(viewerId, 'pr.id') : sql<boolean>`false`).as('is_subscribed'))
    .where('pr.username', '=', username),
);

/**
 * Appends a custom link unless the profile already holds `max.free` (or `max.premium` when
 * premium) links. The count is checked on the row being updated, so two tabs adding at once
 * cannot pass the limit. Undefined when the limit is reached.
 */
export function appendCustomLink(db: DB, userId: string, link: CustomLink, max: { free: number; premium: number }) {
  return db
    .updateTable('profiles')
    .set({
      custom_links: sql<string>`custom_links || jsonb_build_array(jsonb_build_object('title', ${link.title}::text, 'url', ${link.url}::text))`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', userId)
    .where(sql<boolean>`jsonb_array_length(custom_links) < case when is_premium then ${max.premium}::int else ${max.free}::int end`)
    .returning(['custom_links', 'is_premium'])
    .executeTakeFirst();
}

/**
 * Removes the first custom link at `index` and/or with `url` (both must match when both are
 * given). Evaluated on the row being updated, so a concurrent change cannot shift the index
 * under it. Undefined when no link matches.
 */
export function removeCustomLink(db: DB, userId: string, which: { index?: number; url?: string }) {
  const position = sql<number>`(
    select (e.o - 1)::int from jsonb_array_elements(profiles.custom_links) with ordinality as e(link, o)
    where ${which.index === undefined ? sql`true` : sql`e.o - 1 = ${which.index}::int`}
      and ${which.url === undefined ? sql`true` : sql`e.link->>'url' = ${which.url}::text`}
    order by e.o limit 1)`;
  return db
    .updateTable('profiles')
    .set({ custom_links: sql<string>`custom_links - ${position}`, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .where(sql<boolean>`${position} is not null`)
    .returning('custom_links')
    .executeTakeFirst();
}

/** Sets the given social links and removes the `remove` keys, leaving the others as they are. */
export function updateSocialLinks(db: DB, userId: string, set: SocialLinks, remove: string[]) {
  return db
    .updateTable('profiles')
    .set({
      social_links: sql<string>`(social_links || ${JSON.stringify(set)}::jsonb) - ${remove}::text[]`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', userId)
    .returning('social_links')
    .executeTakeFirst();
}

export function dismissUpgradeCard(db: DB, userId: string) {
  return db
    .updateTable('profiles')
    .set({ upgrade_card_dismissed: true, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The kinds the Content tab's media view shows (spec part 1 §9: 'Media tab counts image and video types'). */
export const MEDIA_TAB_KINDS = ['image', 'video'] as const;

/**
 * Search within one creator's posts: the stemmed words of the text and hashtags through the
 * `search` tsvector, or, for a single word with or without '#' (`tag`, from `hashtagOf`), the
 * exact hashtag (which also finds tags the text parser drops, such as stop words).
 */
export function textOrHashtagWhere(q: string, tag: string | null) {
  const text = sql<SqlBool>`posts.search @@ websearch_to_tsquery('english', ${q})`;
  if (tag === null) return text;
  return sql<SqlBool>`(${text} or posts.hashtags @> array[${tag}]::text[])`;
}

/** The hashtag a search is, when it is one word with or without '#' (lower-cased); null otherwise. */
export function hashtagOf(q: string): string | null {
  const tag = q.replace(/^#+/, '').toLowerCase();
  return /^[\p{L}\p{N}_]+$/u.test(tag) ? tag : null;
}

/**
 * One page of one creator's posts in one status ('published' for the Content tab, newest
 * published first, walking posts_creator_published_idx; 'draft' for the owner's Drafts tab,
 * newest made first, walking posts_creator_idx; 'scheduled' for the owner's Scheduled tab, the
 * soonest to be published first), through the access rule; stops after `limit` rows.
 *
 * `pinned` (the Content tab, issue 29 item 5): 'apart' leaves pinned posts out of the page;
 * 'first' does too and adds the creator's pinned posts (at most MAX_PINNED_POSTS, on posts_pinned)
 * in the same statement, for the service to put first (their rows carry `pinned_at`).
 */
export function findCreatorPostsPage(
  db: DB,
  opts: {
    creatorId: string;
    viewerId: string | null;
    status: CreatorPostStatus;
    mediaOnly?: boolean;
    q?: string | null;
    pinned?: 'mixed' | 'apart' | 'first';
    cursor: FeedCursor | null;
    limit: number;
  },
) {
  const { creatorId, viewerId, status, cursor, limit, pinned = 'mixed' } = opts;
  const q = opts.q || null;
  const params = { creatorId, viewerId, status, q, tag: q ? hashtagOf(q) : null, cursor: cursor ? { createdAt: cursor.createdAt, id: cursor.id } : null, limit };
  return creatorPostsPage(db, params, `${status}|${opts.mediaOnly ? 'media' : 'all'}|${pinned}`);
}

type CreatorPostStatus = 'published' | 'draft' | 'scheduled';

// a type, not an interface: statementShape's parameters are a plain record
type CreatorPageParams = {
  creatorId: string;
  viewerId: string | null;
  status: CreatorPostStatus;
  q: string | null;
  tag: string | null;
  cursor: { createdAt: string; id: string } | null;
  limit: number;
};

// A profile's Content tab is read as often as the feed: its statement (the page, and on the
// first page the pinned posts, with their cards) is built and compiled once per shape. The shape
// is `status|media or all|pinned`; which of viewer, search, hashtag and cursor are null adds to it.
const creatorPostsPage = statementShape((db, { creatorId, viewerId, status, q, tag, cursor, limit }: CreatorPageParams, shape) => {
  const [shapeStatus, kind, pinned] = shape.split('|') as [CreatorPostStatus, 'media' | 'all', 'mixed' | 'apart' | 'first'];
  const order: SortColumn = shapeStatus === 'published' ? PUBLISHED_ORDER : shapeStatus === 'scheduled' ? 'posts.publish_at' : 'posts.created_at';
  const ascending = shapeStatus === 'scheduled';
  // No access rule in the page's WHERE: the service has already decided the viewer may see this
  // creator's profile (canSeeProfile), which for one creator's posts of one status is the same
  // decision for every row, and each row still passes postAccess on its own. Repeating the rule
  // here tripled the planning time of the profile's statement (two ORs with a subquery each).
  const keys = () =>
    db
      .selectFrom('posts')
      .select(['posts.id', sql<Date>`${sql.ref(order)}`.as('sort_at')])
      .where('posts.creator_id', '=', creatorId)
      .where('posts.status', '=', status);
  const page = keys()
    .$if(kind === 'media', (b) => b.where('posts.media_kind', 'in', MEDIA_TAB_KINDS))
    .$if(q !== null, (b) => b.where(textOrHashtagWhere(q!, tag)))
    .$if(pinned !== 'mixed', (b) => b.where('posts.pinned_at', 'is', null))
    .$if(cursor !== null, (b) => b.where(pageAfter(cursor!, order, ascending)))
    .orderBy(order, ascending ? 'asc' : 'desc')
    .orderBy('posts.id', ascending ? 'asc' : 'desc')
    .limit(limit);
  if (pinned !== 'first') return cardsQuery(db, viewerId, page, ascending);
  const pins = keys().where('posts.pinned_at', 'is not', null).orderBy('posts.pinned_at', 'desc').limit(MAX_PINNED_POSTS);
  // each branch LIMITed in its own subquery (a bare ORDER BY/LIMIT cannot sit in a UNION branch)
  const both = db
    .selectFrom(pins.as('pins'))
    .selectAll()
    .unionAll(db.selectFrom(page.as('rest')).selectAll());
  return cardsQuery(db, viewerId, both, ascending);
}, { literals: ['status', 'limit'], prepare: ({ q }) => q === null });
