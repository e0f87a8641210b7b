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
 *   0) and add the comment to a loaded comment list; the signed-in user's own events are ignored,
 *   their change is already on screen (optimistic update, then the mutation's answer);
 * - `post:deleted` drops the post from every list (a post page then shows 'Post not found');
 * - `post:published` refetches the feeds (and the profiles' Content tabs, the creator's own drafts)
 *   so the new post appears.
 */
export function useLivePostUpdates(): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  useEffect(
    () =>
      onPostEvent((event) => {
        const myId = utils.auth.me.getData()?.id ?? null;
        switch (event.type) {
          case 'post:likes': {
            if (event.payload.actorId === myId) return;
            setPostCounts(queryClient, event.payload.postId, { likes: event.payload.likes });
            return;
          }
          case 'post:bookmarks': {
            if (event.payload.actorId === myId) return;
            setPostCounts(queryClient, event.payload.postId, { bookmarks: event.payload.bookmarks });
            return;
          }
          case 'post:comment': {
            const { postId, comment, comments, actorId } = event.payload;
            if (actorId === myId) return;
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
            if (event.payload.creatorId === myId) void queryClient.invalidateQueries({ queryKey: PROFILE_DRAFTS_KEY });
            return;
          }
        }
      }),
    [queryClient, utils],
  );
}
