import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '../../lib/trpc';

/**
 * Drops every cached feed page (the brand click on /): a feed on screen starts again from the
 * newest posts at once, any other starts empty on its next visit.
 */
export function clearFeedCache(queryClient: QueryClient): void {
  void queryClient.resetQueries({ queryKey: getQueryKey(trpc.posts.feed) });
}
