import { z } from 'zod';
import { EXPLORE_CATEGORIES } from './enums';
import { normalizeSocialHandle, normalizeWebUrl, type SocialHandleKind } from './links';
import { LIMITS, PROFILE_LIMITS } from './limits';
import { postId } from './ids';
import { FeedCursor } from './post-schemas';
import { safeText } from './text-schema';
import { LINK_TEXTS, PROFILE_TEXTS } from './texts';
import { readUsernameSegment } from './username-segment';

/**
 * Inputs of the profiles and explore procedures, shared by the forms and the server. No input
 * names a user to act on: every write is the caller's own profile (the session says whose).
 * Each schema's type of the same name is what it parses to (z.output), as services receive it.
 */

/**
 * The /{username} path segment as a procedure's input: the rule of readUsernameSegment (required
 * 'Username is required', matched lower-cased), which the browser runs without zod.
 */
export const profileUsernameSchema = z.string({ error: PROFILE_TEXTS.usernameRequired }).transform((raw, ctx) => {
  const read = readUsernameSegment(raw);
  if (read.username !== null) return read.username;
  ctx.addIssue({ code: 'custom', message: read.error, input: raw });
  return z.NEVER;
});

export const ProfileByUsernameInput = z.object({ username: profileUsernameSchema });
export type ProfileByUsernameInput = z.output<typeof ProfileByUsernameInput>;

const searchSchema = z.string().trim().check(safeText('single-line')).max(PROFILE_LIMITS.searchMaxLength).nullish();

/** Content tab: 'all' posts, or 'media' (image and video only, spec §9 'Media tab counts image and video types'). */
export const PROFILE_CONTENT_KINDS = ['all', 'media'] as const;
export type ProfileContentKind = (typeof PROFILE_CONTENT_KINDS)[number];

export const ProfilePostsInput = z.object({
  username: profileUsernameSchema,
  cursor: FeedCursor.nullish(),
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(LIMITS.profileFeedPageSize),
  kind: z.enum(PROFILE_CONTENT_KINDS).default('all'),
  /** search within the profile: stemmed words of the text, or a hashtag ('#tag' or 'tag') */
  q: searchSchema,
});
export type ProfilePostsInput = z.output<typeof ProfilePostsInput>;

/** The caller's own drafts, 10 per page. */
export const DraftsInput = z.object({
  cursor: FeedCursor.nullish(),
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(LIMITS.draftsPageSize),
});
export type DraftsInput = z.output<typeof DraftsInput>;

export const PublishDraftInput = z.object({ postId });
export type PublishDraftInput = z.output<typeof PublishDraftInput>;

/** The caller's scheduled posts, soonest first (the Scheduled tab). */
export const ScheduledInput = DraftsInput;
export type ScheduledInput = DraftsInput;

/** A new time for one of the caller's scheduled posts (its bounds: common/schedule.ts, on the server's clock). */
export const RescheduleInput = z.object({ postId, publishAt: z.coerce.date({ message: 'Choose a date and time to publish' }) });
export type RescheduleInput = z.output<typeof RescheduleInput>;

export const CancelScheduleInput = z.object({ postId });
export type CancelScheduleInput = z.output<typeof CancelScheduleInput>;

/** A custom link: both fields required; the URL must be http(s) (https:// is added when it has no scheme). */
export const AddLinkInput = z.object({
  title: z
    .string({ error: LINK_TEXTS.fieldsRequired })
    .trim()
    .check(safeText('single-line'))
    .min(1, LINK_TEXTS.fieldsRequired)
    .max(PROFILE_LIMITS.linkTitleMaxLength, LINK_TEXTS.titleTooLong),
  url: z
    .string({ error: LINK_TEXTS.fieldsRequired })
    .trim()
    .check(safeText('single-line'))
    .min(1, LINK_TEXTS.fieldsRequired)
    .refine((v) => v === '' || normalizeWebUrl(v) !== null, LINK_TEXTS.urlInvalid)
    .transform((v) => normalizeWebUrl(v) ?? v),
});
export type AddLinkInput = z.output<typeof AddLinkInput>;

/**
 * Which custom link to delete: its position in the list, its URL, or both (both must then
 * match, so a list changed in another tab never loses the wrong link).
 */
export const DeleteLinkInput = z
  .object({
    index: z.number().int().min(0).max(PROFILE_LIMITS.customLinksPremium).optional(),
    url: z.string().trim().check(safeText('single-line')).min(1).max(PROFILE_LIMITS.urlMaxLength).optional(),
  })
  .refine((v) => v.index !== undefined || v.url !== undefined, LINK_TEXTS.deleteWhich);
export type DeleteLinkInput = z.output<typeof DeleteLinkInput>;

const handleField = (kind: SocialHandleKind, message: string) =>
  z
    .string()
    .trim()
    .check(safeText('single-line'))
    .max(PROFILE_LIMITS.urlMaxLength, message)
    .refine((v) => normalizeSocialHandle(kind, v) !== null, message)
    .transform((v) => normalizeSocialHandle(kind, v) ?? '')
    .optional();

const urlField = (message: string) =>
  z
    .string()
    .trim()
    .check(safeText('single-line'))
    .max(PROFILE_LIMITS.urlMaxLength, message)
    .refine((v) => v.trim() === '' || normalizeWebUrl(v) !== null, message)
    .transform((v) => (v.trim() === '' ? '' : (normalizeWebUrl(v) ?? '')))
    .optional();

/**
 * Social links: a key left out stays as it is, '' removes it. twitter and instagram are
 * usernames (a leading @ or a pasted profile address is reduced to the name); youtube and
 * website are http(s) addresses (https:// is added when there is no scheme).
 */
export const UpdateSocialLinksInput = z.object({
  twitter: handleField('twitter', LINK_TEXTS.twitterInvalid),
  instagram: handleField('instagram', LINK_TEXTS.instagramInvalid),
  youtube: urlField(LINK_TEXTS.youtubeInvalid),
  website: urlField(LINK_TEXTS.websiteInvalid),
});
export type UpdateSocialLinksInput = z.output<typeof UpdateSocialLinksInput>;

export type ExploreCategory = (typeof EXPLORE_CATEGORIES)[number];
const categoriesSchema = z
  .array(z.enum(EXPLORE_CATEGORIES))
  .max(EXPLORE_CATEGORIES.length * 2)
  .default([])
  .transform((v) => [...new Set(v)]);

/**
 * Explore: posts of public creators. `q` matches the creator's username or display name
 * (any part, any case) or the post's text (stemmed words); `categories` keeps creators with any
 * of them. Both given: both must hold.
 */
export const ExploreSearchInput = z.object({
  q: searchSchema,
  categories: categoriesSchema,
  cursor: FeedCursor.nullish(),
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(PROFILE_LIMITS.explorePageSize),
});
export type ExploreSearchInput = z.output<typeof ExploreSearchInput>;

/** Explore's creator cards: the same `q` on names and the same chips. */
export const ExploreCreatorsInput = z.object({
  q: searchSchema,
  categories: categoriesSchema,
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(PROFILE_LIMITS.exploreCreatorsLimit),
});
export type ExploreCreatorsInput = z.output<typeof ExploreCreatorsInput>;
