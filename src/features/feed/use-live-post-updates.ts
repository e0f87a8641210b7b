import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { addCommentToCache, markPostGone, removePostFromCaches, setPostCounts } from '../../lib/post-cache';
import { onPostEvent } from '../../lib/socket';
import { trpc } from '../../lib/trpc';
import { FEED_QUERY_KEY } from './feed-cache';

const PROFILE_POSTS_KEY = [['profiles', 'posts']] as const;
const PROFILE_DRAFTS_KEY = [['profiles', 'drafts']] as const;

/**
 * Applies live post events to the react-query caches (mounted once, in the app shell):
 * - `post:likes` / `post:bookmarks` / `post:comment` set the post's absolute counts (never below
 *   0) and add the comment to a loaded comment list (the server does not send this tab the
 *   events of its own changes, which are on screen already; the user's other tabs get them);
 * - `post:deleted` drops the post from every list (a post page then shows 'Post not found'): it
 *   comes for the posts whose rooms this tab is in, i.e. every post it shows, and for the
 *   signed-in creator's own posts;
 * - `post:published` refetches the feeds (and the profiles' Content tabs, the creator's own drafts)
 *   so the new post appears.
 */
export function useLivePostUpdates(): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  useEffect(
    () =>
      onPostEvent((event) => {
        switch (event.type) {
          case 'post:likes': {
            setPostCounts(queryClient, event.payload.postId, { likes: event.payload.likes });
            return;
          }
          case 'post:bookmarks': {
            setPostCounts(queryClient, event.payload.postId, { bookmarks: event.payload.bookmarks });
            return;
          }
          case 'post:comment': {
            const { postId, comment, comments } = event.payload;
            addCommentToCache(queryClient, postId, { ...comment, createdAt: new Date(comment.createdAt) });
            setPostCounts(queryClient, postId, { comments });
            return;
          }
          case 'post:deleted': {
            // Idempotent, so the user's own deletion (seen from another tab) applies too.
            markPostGone(event.payload.postId);
            removePostFromCaches(queryClient, event.payload.postId);
            return;
          }
          case 'post:published': {
            void queryClient.invalidateQueries({ queryKey: FEED_QUERY_KEY });
            // a profile's Content tab, and its owner's drafts when published from another tab
            void queryClient.invalidateQueries({ queryKey: PROFILE_POSTS_KEY });
            if (event.payload.creatorId === utils.auth.me.getData()?.id) void queryClient.invalidateQueries({ queryKey: PROFILE_DRAFTS_KEY });
            return;
          }
        }
      }),
    [queryClient, utils],
  );
}
