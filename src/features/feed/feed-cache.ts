import type { QueryClient } from '@tanstack/react-query';

/**
 * tRPC query keys of the feed procedure (`posts.feed`, DESIGN.md "How data flows"). The feed itself
 * lands in a later issue; clearing by key prefix already works and costs nothing until then.
 */
const FEED_KEY_PREFIX = [['posts', 'feed']] as const;

/** Drops every cached feed page so the next visit to / starts from the newest posts. */
export function clearFeedCache(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: FEED_KEY_PREFIX });
}
