import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { CACHE } from '../../../common/limits';
import type { PostPage } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';

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

/**
 * Drops every cached feed page (the brand click on /): a feed on screen starts again from the
 * newest posts at once, any other starts empty on its next visit.
 */
export function clearFeedCache(queryClient: QueryClient): void {
  void queryClient.resetQueries({ queryKey: getQueryKey(trpc.posts.feed) });
}
