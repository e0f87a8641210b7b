import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { PostStatus, ProfileVisibility } from '../../common/enums';
import type { DB } from '../../core/db/kysely';
import type { UnlockMode } from '../../core/db/schema';
import { activeSubscriptionExists, findActiveSubscriptionCreatorIds } from '../subscriptions/active';
import { findPostAccessFacts, findUnlockedPostIds, unlockExists } from './access.queries';

/**
 * THE access rule for posts: who may see a post, and who may see its full media. The feed,
 * bookmarks, the single post page, likes, comments, the media route (every variant and the
 * download) and socket room joins all decide through this file.
 *
 * A post is visible to a viewer when
 *   - it is published, or the viewer is its creator (drafts, processing and failed posts are the
 *     owner's alone), and
 *   - its creator's profile is visible to the viewer: `private` and `hidden` profiles only to
 *     their owner; `friends` profiles to their owner and the creator's active subscribers (the
 *     product has no friend graph: a fan with an active subscription, domain/subscriptions/
 *     active.ts, is the creator's friend). A creator without a privacy_settings row is public.
 * The full media of a visible post may be seen by everyone, except for a premium post: only its
 * creator and viewers with an active subscription to the creator (domain/subscriptions/active.ts:
 * status 'active' and current_period_end in the future, through the tier's creator). Everyone else
 * gets the post's text, author and counts, and the blurred 'preview' variant.
 *
 * A pay-per-view post (an unlock price, issue 27 item 2; docs/payments.md) opens its full media to
 * its creator and to the fans who bought it (a `post_unlocks` row not revoked by a refund or a
 * dispute), and, when its mode is 'non_subscribers', to the creator's active subscribers as well.
 * With mode 'everyone' subscribers pay too. The price replaces the premium flag for media: a
 * pay-per-view post is locked for everyone else whether premium or not. Bought stays bought (issue
 * 45): an unlock opens the post's media whatever its creator changed since (made it premium, took
 * the price away, changed the price or the mode); only a refund or a dispute revokes it.
 *
 * Lists filter in SQL with `visiblePostWhere` (the same rule, so paging stays exact) and then
 * pass each row through `postAccess`. The viewer's entitlements come either from `loadViewer`
 * (one query for all the creators in question) or, in a list's own statement, from the
 * `viewerSubscribedColumn` of each row (`viewerOfRows`): never one query per post.
 *
 * Profiles by name, each with its SQL twin (access.test.ts checks each pair agrees):
 * `isOwnerOnlyProfile` / `ownerOnlyProfileWhere` (private, hidden: nobody else sees them, nobody
 * subscribes to them, nobody is charged for them) and `profileVisibleToAll` /
 * `profileVisibleToAllWhere` (listed, announced, cacheable by anyone).
 */

/** Profiles nobody but their owner may see. */
export const OWNER_ONLY_VISIBILITIES: readonly ProfileVisibility[] = ['private', 'hidden'];
/** Profiles not everyone may see (never listed, never announced to all). */
const NOT_PUBLIC_VISIBILITIES: readonly ProfileVisibility[] = [...OWNER_ONLY_VISIBILITIES, 'friends'];

export interface PostAccessFacts {
  creatorId: string;
  status: PostStatus;
  isPremium: boolean;
  /** the creator's privacy_settings.profile_visibility; null when the row is missing (public) */
  creatorVisibility: ProfileVisibility | null;
  /** pay-per-view: the price in cents and who must pay it (both null: not pay-per-view) */
  unlockPriceCents: number | null;
  unlockMode: UnlockMode | null;
}

/** What a viewer is entitled to beyond what everyone may see: subscriptions (`creators`) and bought posts (`posts`). */
export interface Entitlements {
  /**
   * creators the viewer has an active subscription to (domain/subscriptions/active.ts; only those
   * asked about when loaded: the creators of premium posts when media matters, and of 'friends'
   * profiles always). Opens the creator's premium media and their 'friends' profile.
   */
  readonly creators: ReadonlySet<string>;
  /** pay-per-view posts the viewer bought (unlocks not revoked; only those asked about when loaded) */
  readonly posts: ReadonlySet<string>;
}

export interface Viewer {
  userId: string | null;
  entitlements: Entitlements;
}

export interface PostAccess {
  visible: boolean;
  isOwner: boolean;
  /** the full media (every variant but 'preview', and the download) */
  canViewMedia: boolean;
}

/** A viewer judged without entitlements: what they may see as anyone signed in (or a visitor). */
export function viewerWithoutEntitlements(userId: string | null): Viewer {
  return { userId, entitlements: { creators: new Set(), posts: new Set() } };
}

export const anonymousViewer: Viewer = viewerWithoutEntitlements(null);

/** Nobody but their owner may see the profile (private, hidden): no one else subscribes to it or pays for it. */
export function isOwnerOnlyProfile(visibility: ProfileVisibility | null): boolean {
  return visibility !== null && OWNER_ONLY_VISIBILITIES.includes(visibility);
}

/** `isOwnerOnlyProfile` as SQL, over the profile_visibility column named (null: a missing row, public). */
export function ownerOnlyProfileWhere(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(column)} is not null and ${sql.ref(column)} in (${sql.join(OWNER_ONLY_VISIBILITIES)}))`;
}

/** Everyone may see the profile, signed in or not (`canSeeProfile` for nobody in particular). */
export function profileVisibleToAll(visibility: ProfileVisibility | null): boolean {
  return visibility === null || !NOT_PUBLIC_VISIBILITIES.includes(visibility);
}

/**
 * Whether a profile (its page, its posts) may be seen by the viewer: `private` and `hidden` only
 * by their owner; `friends` by their owner and the profile's active subscribers
 * (`viewerIsActiveSubscriber`, read with domain/subscriptions/active.ts); a missing
 * privacy_settings row is public.
 */
export function canSeeProfile(
  viewerId: string | null,
  profileId: string,
  visibility: ProfileVisibility | null,
  viewerIsActiveSubscriber = false,
): boolean {
  if (viewerId !== null && viewerId === profileId) return true;
  if (visibility === 'friends') return viewerId !== null && viewerIsActiveSubscriber;
  return !isOwnerOnlyProfile(visibility);
}

/** Whether the viewer's entitlements open this post's locked media (premium or pay-per-view). */
function entitledToMedia(viewer: Viewer, post: PostAccessFacts, postId: string | undefined): boolean {
  // bought stays bought, pay-per-view or not any more
  if (postId !== undefined && viewer.entitlements.posts.has(postId)) return true;
  if (isPayPerView(post)) return post.unlockMode === 'non_subscribers' && viewer.entitlements.creators.has(post.creatorId);
  return viewer.entitlements.creators.has(post.creatorId);
}

export const isPayPerView = (post: Pick<PostAccessFacts, 'unlockPriceCents'>) => post.unlockPriceCents !== null;

/** Whether the post's full media is closed to those without an entitlement (premium, or pay-per-view). */
const isLocked = (post: PostAccessFacts) => post.isPremium || isPayPerView(post);

/** `post.id`: the post's id, which a pay-per-view unlock names (facts made by `toFacts` carry it). */
export function postAccess(viewer: Viewer, post: PostAccessFacts & { id?: string }): PostAccess {
  const isOwner = viewer.userId !== null && viewer.userId === post.creatorId;
  const profileVisible = canSeeProfile(viewer.userId, post.creatorId, post.creatorVisibility, viewer.entitlements.creators.has(post.creatorId));
  const visible = isOwner || (post.status === 'published' && profileVisible);
  const canViewMedia = visible && (isOwner || !isLocked(post) || entitledToMedia(viewer, post, post.id));
  return { visible, isOwner, canViewMedia };
}

/**
 * The viewer with the entitlements needed to judge these posts: at most two queries (subscriptions,
 * unlocks), and none at all for a visitor or when no post is of someone else's 'friends' profile
 * or (with `media`, the default) a locked post (premium or pay-per-view) of someone else.
 */
export async function loadViewer(
  db: DB,
  userId: string | null,
  posts: readonly (Pick<PostAccessFacts, 'creatorId' | 'isPremium'> & Partial<Pick<PostAccessFacts, 'unlockPriceCents' | 'unlockMode'>> & { id?: string; creatorVisibility?: ProfileVisibility | null })[],
  opts: { media: boolean } = { media: true },
): Promise<Viewer> {
  if (!userId) return anonymousViewer;
  const others = posts.filter((p) => p.creatorId !== userId);
  // unlocks are asked for every locked post of others: one bought stays bought after it turned premium
  const ppv = opts.media ? others.filter((p) => (p.unlockPriceCents != null || p.isPremium) && p.id !== undefined) : [];
  const asked = others.filter((p) => p.creatorVisibility === 'friends' || (opts.media && (p.isPremium || p.unlockMode === 'non_subscribers')));
  const creatorIds = [...new Set(asked.map((p) => p.creatorId))];
  const postIds = [...new Set(ppv.map((p) => p.id!))];
  const [creators, bought] = await Promise.all([
    creatorIds.length ? findActiveSubscriptionCreatorIds(db, userId, creatorIds) : [],
    postIds.length ? findUnlockedPostIds(db, userId, postIds) : [],
  ]);
  return { userId, entitlements: { creators: new Set(creators), posts: new Set(bought) } };
}

/**
 * What `loadViewer` asks, as a column of a statement over `posts` left-joined to
 * `privacy_settings` under the alias `ps`: whether the viewer has an active subscription to the
 * post's creator, asked only where the rule needs it (a premium post, a pay-per-view post open to
 * subscribers, or a 'friends' creator, of someone else) and false for a visitor. With
 * `viewerUnlockedColumn` (the viewer bought this pay-per-view post), `viewerOfRows` makes the
 * Viewer of a page from them.
 */
export function viewerSubscribedColumn(viewerId: string | null): RawBuilder<boolean> {
  if (!viewerId) return sql<boolean>`false`;
  return sql<boolean>`(posts.creator_id <> ${viewerId} and (posts.is_premium or posts.unlock_mode = 'non_subscribers' or ps.profile_visibility = 'friends') and ${activeSubscriptionExists(viewerId, 'posts.creator_id')})`;
}

/**
 * Whether the viewer bought this locked post (an unlock not revoked: it may have turned premium or
 * lost its price since); false for a visitor and for posts free to all.
 */
export function viewerUnlockedColumn(viewerId: string | null): RawBuilder<boolean> {
  if (!viewerId) return sql<boolean>`false`;
  return sql<boolean>`((posts.unlock_price_cents is not null or posts.is_premium) and posts.creator_id <> ${viewerId} and ${unlockExists(viewerId, 'posts.id')})`;
}

/** The viewer that `loadViewer` would load for these rows, from their `viewerSubscribedColumn` and `viewerUnlockedColumn`. */
export function viewerOfRows(userId: string | null, rows: readonly { id: string; creator_id: string; viewer_subscribed: boolean; viewer_unlocked: boolean }[]): Viewer {
  if (!userId) return anonymousViewer;
  return {
    userId,
    entitlements: {
      creators: new Set(rows.filter((r) => r.viewer_subscribed).map((r) => r.creator_id)),
      posts: new Set(rows.filter((r) => r.viewer_unlocked).map((r) => r.id)),
    },
  };
}

/**
 * `postAccess(...).visible` as SQL, for queries over `posts` left-joined to `privacy_settings`
 * under the alias `ps` on the creator. Keep the two in step: access.test.ts checks that they
 * agree on every combination of status, visibility and viewer. The viewer is an id, or a column
 * of the outer query (a fan-out's pushes: each row read as its own user, one query for them all).
 */
export function visiblePostWhere(viewerId: string | RawBuilder<string> | null): RawBuilder<SqlBool> {
  const publicAndPublished = sql<SqlBool>`(posts.status = 'published' and ${profileVisibleToAllWhere()})`;
  if (!viewerId) return publicAndPublished;
  // a 'friends' creator's published posts: to their active subscribers (checked only for those rows)
  const friends = sql<SqlBool>`(posts.status = 'published' and ps.profile_visibility = 'friends' and ${activeSubscriptionExists(viewerId, 'posts.creator_id')})`;
  return sql<SqlBool>`(posts.creator_id = ${viewerId} or ${publicAndPublished} or ${friends})`;
}

/**
 * `canSeeProfile(null, ...)` as SQL: the profile whose privacy_settings row is joined as `ps`
 * may be seen by everyone (Explore, featured lists, the public part of `visiblePostWhere`).
 */
export function profileVisibleToAllWhere(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(ps.profile_visibility is null or ps.profile_visibility not in (${sql.join(NOT_PUBLIC_VISIBILITIES)}))`;
}

/** A post's access for one viewer, with the facts it was decided on. */
export interface LoadedPostAccess extends PostAccess {
  postId: string;
  facts: PostAccessFacts;
}

/**
 * Loads one post's facts and decides. `media: false` skips the entitlement lookup when only
 * visibility matters (likes, comments, bookmarks), so those answer with `canViewMedia` unknown
 * (reported false for premium posts of others). Null when the id matches no post.
 */
export async function loadPostAccess(db: DB, viewerId: string | null, postId: string, opts: { media: boolean }): Promise<LoadedPostAccess | null> {
  const [row] = await findPostAccessFacts(db, [postId]);
  if (!row) return null;
  const facts = toFacts(row);
  const viewer = await loadViewer(db, viewerId, [facts], opts);
  return { postId, facts, ...postAccess(viewer, facts) };
}

/** Of these post ids, the ones visible to the viewer (socket room joins): one query. */
export async function filterVisiblePostIds(db: DB, viewerId: string | null, postIds: string[]): Promise<string[]> {
  const ids = [...new Set(postIds)];
  if (ids.length === 0) return [];
  const rows = await findPostAccessFacts(db, ids);
  const viewer = await loadViewer(db, viewerId, rows.map(toFacts), { media: false });
  return rows.filter((row) => postAccess(viewer, toFacts(row)).visible).map((row) => row.id);
}

export function toFacts(row: {
  id: string;
  creator_id: string;
  status: PostStatus;
  is_premium: boolean;
  profile_visibility: ProfileVisibility | null;
  unlock_price_cents: number | null;
  unlock_mode: UnlockMode | null;
}): PostAccessFacts & { id: string } {
  return {
    id: row.id,
    creatorId: row.creator_id,
    status: row.status,
    isPremium: row.is_premium,
    creatorVisibility: row.profile_visibility,
    unlockPriceCents: row.unlock_price_cents,
    unlockMode: row.unlock_mode,
  };
}
