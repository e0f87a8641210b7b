import { useQueryClient, type Query } from '@tanstack/react-query';
import { addCommentToCache, removePostFromCaches, setPostCounts } from '../../lib/post-cache';
import { useRealtimeEvent } from '../../lib/realtime/listeners';

/** Whether a cached query holds this post: one post (posts.byId) or a page list of posts. */
function holdsPost(query: Query, postId: string): boolean {
  const data = query.state.data as { id?: unknown; pages?: { items?: { id?: unknown }[] }[] } | undefined;
  if (!data || typeof data !== 'object') return false;
  if (data.id === postId) return true;
  return (data.pages ?? []).some((page) => (page.items ?? []).some((item) => item?.id === postId));
}

/**
 * Patches the react-query caches in place from live post events (mounted once, in the app shell):
 * - `post:likes` / `post:bookmarks` / `post:comment` set the post's absolute counts (never below
 *   0) and add the comment to a loaded comment list (the server does not send this tab the
 *   events of its own changes, which are on screen already; the user's other tabs get them);
 * - `post:deleted` drops the post from every list (a post page then shows 'Post not found'): it
 *   comes for the posts whose rooms this tab is in, i.e. every post it shows, and for the
 *   signed-in creator's own posts.
 * New posts are not fetched here: an open feed offers them with its 'new posts' pill.
 */
export function useLivePostUpdates(): void {
  const queryClient = useQueryClient();

  useRealtimeEvent('post:likes', ({ postId, likes }) => setPostCounts(queryClient, postId, { likes }));
  useRealtimeEvent('post:bookmarks', ({ postId, bookmarks }) => setPostCounts(queryClient, postId, { bookmarks }));
  useRealtimeEvent('post:comment', ({ postId, comment, comments }) => {
    addCommentToCache(queryClient, postId, { ...comment, createdAt: new Date(comment.createdAt) });
    setPostCounts(queryClient, postId, { comments });
  });
  // Idempotent, so the user's own deletion (seen from another tab) applies too.
  useRealtimeEvent('post:deleted', ({ postId }) => removePostFromCaches(queryClient, postId));
  // an edit or a pin: what this viewer may see of it is the server's to say (a post made premium
  // locks), so the queries holding it refetch through the access rule rather than being patched
  useRealtimeEvent('post:updated', ({ postId }) => void queryClient.invalidateQueries({ predicate: (query) => holdsPost(query, postId) }));
}
