import { TRPCError } from '@trpc/server';
import { normalizeWebUrl, SOCIAL_KINDS } from '../../../common/links';
import { PROFILE_LIMITS } from '../../../common/limits';
import type { CustomLinkDto, ProfileDto, SocialLinksDto } from '../../../common/profile-dtos';
import type { PostPageDto } from '../../../common/post-dtos';
import type {
  AddLinkInput,
  DeleteLinkInput,
  DraftsInput,
  RescheduleInput,
  ScheduledInput,
  ProfilePostsInput,
  UpdateSocialLinksInput,
} from '../../../common/profile-schemas';
import { LINK_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import type { CustomLink, SocialLinks } from '../../../core/db/schema';
import { fieldError } from '../../trpc/errors';
import { canSeeProfile } from '../../../domain/access/access';
import { toBadgedPerson } from '../../../domain/people/person-columns';
import { applyPostEffects } from '../../../domain/posts/effects';
import { cancelSchedule as cancelOwnSchedule, publishDraft as publishOwnDraft, reschedulePost } from '../../../domain/posts/transitions';
import { scheduleProblem } from '../../../common/schedule';
import { cardPage, toPostDtos } from '../../shared/post-cards/post-cards';
import { postNotFound } from '../../shared/visible-post';
import {
  appendCustomLink,
  dismissUpgradeCard as dismissUpgradeCardRow,
  findCreatorPostsPage,
  findProfileHeader,
  findProfileVisibility,
  removeCustomLink,
  updateSocialLinks as updateSocialLinksRow,
} from './profiles.queries';

type Deps = Pick<AppDeps, 'db'>;

/**
 * NOT_FOUND 'Profile not found' for an unknown username and for a private or hidden profile
 * seen by anyone but its owner alike: nobody learns that such a profile exists.
 */
export const profileNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: PROFILE_TEXTS.notFound.title });

/** The /{username} header: one query (plus the session's). */
export async function profileByUsername(deps: Deps, viewerId: string | null, username: string): Promise<ProfileDto> {
  const row = await findProfileHeader(deps.db, username, viewerId);
  if (!row || !canSeeProfile(viewerId, row.id, row.profile_visibility, row.is_subscribed === true)) throw profileNotFound();
  const isOwner = viewerId === row.id;
  return {
    ...toBadgedPerson(row),
    bio: row.bio,
    categories: row.categories,
    isCreator: row.is_creator,
    hasTier: row.is_creator && row.has_tier === true,
    socialLinks: toSocialLinks(row.social_links),
    customLinks: toCustomLinks(row.custom_links),
    subscriberCount: Number(row.subscriber_count ?? 0),
    postCount: Number(row.post_count ?? 0),
    mediaCount: Number(row.media_count ?? 0),
    draftCount: isOwner ? Number(row.draft_count ?? 0) : null,
    viewer: {
      isOwner,
      isSubscribed: !isOwner && row.is_subscribed === true,
      canMessage: viewerId !== null && !isOwner,
    },
    // the card sells Premium to creators (featured order, unlimited links); a fan is offered Become a Creator instead
    showUpgradeCard: isOwner && row.is_creator && !row.is_premium && !row.upgrade_card_dismissed,
  };
}

/**
 * The Content tab: the creator's published posts (the owner's too: drafts have their own tab),
 * 5 per page, optionally only images and videos, optionally searched. NOT_FOUND 'Profile not
 * found' when the profile may not be seen, so nothing of a private profile leaves the server.
 */
export async function profilePosts(deps: Deps, viewerId: string | null, { username, cursor, limit, kind, q }: ProfilePostsInput): Promise<PostPageDto> {
  const profile = await findProfileVisibility(deps.db, username, viewerId);
  if (!profile || !canSeeProfile(viewerId, profile.id, profile.profile_visibility, profile.is_subscribed === true)) throw profileNotFound();
  // the profile is visible: the access rule still filters each row
  // Pinned posts lead the unfiltered tab (issue 29 item 5). They are at most MAX_PINNED_POSTS, so
  // the first page adds them (same statement) and every page of the keyset-paged rest leaves them
  // out: the cursor stays the plain (published_at, id) one, taken from the rest, and no post can
  // repeat or be skipped. The Media view and a search keep plain newest-first order.
  const pinnedFirst = kind === 'all' && !q;
  const pinned = !pinnedFirst ? 'mixed' : cursor ? 'apart' : 'first';
  const page = { creatorId: profile.id, viewerId, status: 'published', mediaOnly: kind === 'media', q: q || null, pinned, cursor: cursor ?? null, limit } as const;
  const rows = await findCreatorPostsPage(deps.db, page);
  if (pinned !== 'first') return cardPage(viewerId, rows, limit);
  const pins = rows.filter((r) => r.pinned_at !== null).sort((a, b) => b.pinned_at!.getTime() - a.pinned_at!.getTime());
  const rest = cardPage(viewerId, rows.filter((r) => r.pinned_at === null), limit);
  return { items: [...toPostDtos(viewerId, pins), ...rest.items], nextCursor: rest.nextCursor };
}

/** The Drafts tab: the caller's own drafts, newest first, 10 per page. Nobody else's, ever. */
export async function drafts(deps: Deps, userId: string, { cursor, limit }: DraftsInput): Promise<PostPageDto> {
  return cardPage(userId, await findCreatorPostsPage(deps.db, { creatorId: userId, viewerId: userId, status: 'draft', cursor: cursor ?? null, limit }), limit);
}

/** The Scheduled tab: the caller's own scheduled posts, soonest first, 10 per page. Nobody else's, ever. */
export async function scheduled(deps: Deps, userId: string, { cursor, limit }: ScheduledInput): Promise<PostPageDto> {
  return cardPage(userId, await findCreatorPostsPage(deps.db, { creatorId: userId, viewerId: userId, status: 'scheduled', cursor: cursor ?? null, limit }), limit);
}

type ScheduleDeps = Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log' | 'config' | 'clock'>;

/** A new time for the caller's scheduled post: in the future by the server's clock, at most a year ahead. */
export async function reschedule(deps: ScheduleDeps, userId: string, { postId, publishAt }: RescheduleInput): Promise<{ postId: string; publishAt: Date }> {
  const problem = scheduleProblem(publishAt, deps.clock.now());
  if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem });
  const effects = await reschedulePost(deps.db, userId, postId, publishAt);
  if (!effects) throw postNotFound();
  await applyPostEffects(deps, effects);
  return { postId, publishAt };
}

/** The caller's scheduled post back to their drafts (nothing is published). */
export async function cancelSchedule(deps: ScheduleDeps, userId: string, postId: string): Promise<{ postId: string; status: 'draft' }> {
  const effects = await cancelOwnSchedule(deps.db, userId, postId);
  if (!effects) throw postNotFound();
  await applyPostEffects(deps, effects);
  return { postId, status: 'draft' };
}

/**
 * Publish: the caller's draft (or scheduled post, published now) becomes a published post. Another user's post, an unknown id and
 * a post that is not a draft are all NOT_FOUND 'Post not found' (the update names the caller and
 * the draft state, so it cannot touch anything else). Tells the creator's other tabs and, when
 * the profile is public, open feeds with `post:published`, as the upload pipeline does.
 */
export async function publishDraft(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log' | 'config'>,
  userId: string,
  postId: string,
): Promise<{ postId: string; status: 'published' }> {
  const effects = await publishOwnDraft(deps.db, userId, postId);
  if (!effects) throw postNotFound();
  await applyPostEffects(deps, effects);
  return { postId, status: 'published' };
}

/**
 * Adds a custom link to the caller's profile and returns the list. Free profiles hold
 * PROFILE_LIMITS.customLinksFree links (the upgrade card's 'unlimited links' is Premium's).
 */
export async function addLink(deps: Deps, userId: string, link: AddLinkInput): Promise<CustomLinkDto[]> {
  const row = await appendCustomLink(deps.db, userId, link, {
    free: PROFILE_LIMITS.customLinksFree,
    premium: PROFILE_LIMITS.customLinksPremium,
  });
  if (!row) {
    throw new TRPCError({ code: 'FORBIDDEN', message: LINK_TEXTS.limitReached(PROFILE_LIMITS.customLinksFree) });
  }
  return toCustomLinks(row.custom_links);
}

/** Deletes one of the caller's custom links; NOT_FOUND 'That link no longer exists' when none matches. */
export async function deleteLink(deps: Deps, userId: string, which: DeleteLinkInput): Promise<CustomLinkDto[]> {
  const row = await removeCustomLink(deps.db, userId, which);
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: LINK_TEXTS.linkNotFound });
  return toCustomLinks(row.custom_links);
}

/** Sets (or with '' removes) the caller's social links; keys left out are kept. Returns them all. */
export async function updateSocialLinks(deps: Deps, userId: string, links: UpdateSocialLinksInput): Promise<SocialLinksDto> {
  const set: SocialLinks = {};
  const remove: string[] = [];
  for (const kind of SOCIAL_KINDS) {
    const value = links[kind];
    if (value === undefined) continue;
    if (value === '') remove.push(kind);
    else set[kind] = value;
  }
  const row = await updateSocialLinksRow(deps.db, userId, set, remove);
  if (!row) throw fieldError('socialLinks', LINK_TEXTS.socialUpdateFailed.description);
  return toSocialLinks(row.social_links);
}

/** The owner hides the upgrade card for good. */
export async function dismissUpgradeCard(deps: Deps, userId: string): Promise<{ dismissed: true }> {
  await dismissUpgradeCardRow(deps.db, userId);
  return { dismissed: true };
}

/** Stored links as shown: only well-formed {title, url} with an http(s) address. */
function toCustomLinks(value: unknown): CustomLinkDto[] {
  if (!Array.isArray(value)) return [];
  return (value as Partial<CustomLink>[]).flatMap((link) => {
    if (typeof link?.title !== 'string' || typeof link.url !== 'string') return [];
    const url = normalizeWebUrl(link.url);
    return url ? [{ title: link.title, url }] : [];
  });
}

function toSocialLinks(value: unknown): SocialLinksDto {
  const out: SocialLinksDto = {};
  if (!value || typeof value !== 'object') return out;
  for (const kind of SOCIAL_KINDS) {
    const v = (value as Record<string, unknown>)[kind];
    if (typeof v === 'string' && v !== '') out[kind] = v;
  }
  return out;
}
