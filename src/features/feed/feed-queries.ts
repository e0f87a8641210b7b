import { CACHE } from '../../../common/limits';
import type { PostPage } from '../../lib/post-cache';

export { FEED_INPUT } from '../../../common/first-data';

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
