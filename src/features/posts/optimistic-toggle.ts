import type { Post, PostCounts } from '../../lib/post-cache';

/** A viewer flag of a post and the count that goes with it (like → likes, bookmark → bookmarks). */
export interface ToggleField {
  flag: keyof Pick<Post['viewer'], 'liked' | 'bookmarked'>;
  count: keyof Pick<PostCounts, 'likes' | 'bookmarks'>;
}

export const LIKE_TOGGLE: ToggleField = { flag: 'liked', count: 'likes' };
export const BOOKMARK_TOGGLE: ToggleField = { flag: 'bookmarked', count: 'bookmarks' };

/**
 * The post with the viewer's flag set to `on`. Without `count` the count moves by one when the
 * flag changes (the optimistic step; setting the flag it has already changes nothing); with it
 * the count is the server's absolute value. Never below 0.
 */
export function withToggle(post: Post, field: ToggleField, on: boolean, count?: number): Post {
  const delta = on === post.viewer[field.flag] ? 0 : on ? 1 : -1;
  return {
    ...post,
    viewer: { ...post.viewer, [field.flag]: on },
    counts: { ...post.counts, [field.count]: Math.max(0, count ?? post.counts[field.count] + delta) },
  };
}

/**
 * The server was in the `next` state already (another tab did the same): the flag stays, the
 * optimistic step of the count is taken back. Never below 0.
 */
export function withoutCountStep(post: Post, field: ToggleField, next: boolean): Post {
  return { ...post, counts: { ...post.counts, [field.count]: Math.max(0, post.counts[field.count] - (next ? 1 : -1)) } };
}
