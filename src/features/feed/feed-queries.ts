import { CACHE, LIMITS } from '../../../common/limits';
import type { PostPage } from '../../lib/post-cache';

/** The home feed's input: the spec's page of 5; the cursor is added by the infinite query. */
export const FEED_INPUT = { limit: LIMITS.feedPageSize } as const;

/**
 * Shared by the route loader's prefetch and the component's query, so both describe one cache
 * entry: cursor paging (the server's `nextCursor` is opaque, null after the last page; a page
 * shorter than 5 is the last) and the spec's feed cache times (fresh 2 min, kept 15 min).
 */
export const feedQueryOptions = {
  getNextPageParam: (lastPage: PostPage) => lastPage.nextCursor,
  staleTime: CACHE.feed.staleTime,
  gcTime: CACHE.feed.gcTime,
};
