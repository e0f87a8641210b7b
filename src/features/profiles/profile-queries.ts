import { CACHE, LIMITS } from '../../../common/limits';
import type { PostPage } from '../../lib/post-cache';
import type { RouterOutputs } from '../../lib/trpc';

/** The /{username} header card and what the viewer may do there (ProfileDto). */
export type Profile = RouterOutputs['profiles']['byUsername'];

/** The profile's cache times (spec part 1 §9: fresh 5 minutes, kept 30 minutes), for loaders and components alike. */
export const profileQueryOptions = {
  staleTime: CACHE.profile.staleTime,
  gcTime: CACHE.profile.gcTime,
};

/** The profile's post lists: the profile cache times and cursor paging (`nextCursor` null after the last page). */
export const profileListOptions = {
  ...profileQueryOptions,
  getNextPageParam: (lastPage: PostPage) => lastPage.nextCursor,
};

export { profilePostsInput } from '../../../common/first-data';

/** The owner's drafts, 10 per page. */
export const DRAFTS_INPUT = { limit: LIMITS.draftsPageSize } as const;

/** The owner's scheduled posts, soonest first, 10 per page. */
export const SCHEDULED_INPUT = { limit: LIMITS.draftsPageSize } as const;

/** The owner's bookmarks, the feed's page of 5. */
export const BOOKMARKS_INPUT = { limit: LIMITS.feedPageSize } as const;
