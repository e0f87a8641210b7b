import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { POST_TEXTS, UPLOAD_TEXTS } from '../../../common/texts';
import { addPostToFeed } from '../../lib/post-cache';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { claimPending, dropPending, findPending, pendingOlderThan, setProcessingProgress } from './pending-posts';

/** The toast of one upload: its 'Uploaded' message is replaced by 'Post published', not joined by it. */
export const uploadToastId = (optimisticId: string) => `upload-${optimisticId}`;

/** How long a published upload may stay 'Processing...' before the client asks the server itself. */
export const PUBLISH_WAIT_MS = 60_000;
const CHECK_EVERY_MS = 15_000;

/**
 * The creator's side of the media pipeline's events, which come to the creator's own room
 * (mounted once, in the app shell, so it works on every screen):
 * - `post:published` of one of the creator's posts: the real post goes to the front of the feed
 *   at once (no 'new posts' pill for one's own post), replacing the 'Publishing' card of an upload
 *   from this tab (or one the upload screen listed as processing) with 'Post published - Your
 *   content is now live!'; the creator's drafts and Content tab are read again;
 * - `post:failed`: the card goes, and the reason is shown ('Upload failed' - reason); the upload
 *   screen lists the post with Retry and Delete;
 * - `post:draft-ready`: the drafts and the upload screen's list are refreshed;
 * - `post:progress`: the cards show how far processing is.
 * If no event came within a minute (a missed event, a reconnect), the server is asked; the feed
 * refetches when the post is no longer processing (spec part 1 §4: "otherwise the feed refetches").
 */
export function useUploadUpdates(): void {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  useRealtimeEvent('post:published', ({ postId, creatorId, optimisticId }) => {
    const me = utils.auth.me.getData();
    if (!me || creatorId !== me.id) return;
    const listed = utils.uploads.unfinished.getData()?.some((u) => u.postId === postId);
    void utils.uploads.unfinished.invalidate();
    void utils.profiles.drafts.invalidate();
    void utils.profiles.posts.invalidate({ username: me.username });
    const fromHere = !!optimisticId && (!!findPending(queryClient, optimisticId) || !!listed);
    if (fromHere && !claimPending(optimisticId)) return;
    // in the place of the upload's own toast ('Uploaded - your post is processing'): never both
    if (fromHere) notify.success(POST_TEXTS.published, { id: uploadToastId(optimisticId) });
    utils.posts.byId.fetch({ id: postId }, { staleTime: 0 }).then(
      (post) => {
        addPostToFeed(queryClient, post);
        if (optimisticId) dropPending(queryClient, optimisticId);
      },
      () => {
        // the card goes; a refetch brings the post if it exists
        if (optimisticId) dropPending(queryClient, optimisticId);
        void utils.posts.feed.invalidate();
      },
    );
  });

  useRealtimeEvent('post:failed', ({ optimisticId, reason }) => {
    if (optimisticId && claimPending(optimisticId)) dropPending(queryClient, optimisticId);
    notify.error({ title: UPLOAD_TEXTS.uploadFailed, description: reason });
    void utils.uploads.unfinished.invalidate();
  });

  useRealtimeEvent('post:draft-ready', () => {
    void utils.uploads.unfinished.invalidate();
    void utils.profiles.drafts.invalidate();
    // a scheduled upload finished, moved or cancelled (the same event: the creator's lists read again)
    void utils.profiles.scheduled.invalidate();
  });

  useRealtimeEvent('post:progress', ({ postId, percent }) => setProcessingProgress(queryClient, postId, percent));

  useEffect(() => {
    const timer = setInterval(() => {
      const waiting = pendingOlderThan(queryClient, PUBLISH_WAIT_MS);
      if (waiting.length === 0) return;
      utils.uploads.unfinished.fetch(undefined, { staleTime: 0 }).then(
        (unfinished) => {
          let refetch = false;
          for (const post of waiting) {
            const row = unfinished.find((u) => u.optimisticId === post.optimisticId || (post.postId !== null && u.postId === post.postId));
            if (row?.status === 'processing') continue;
            // published (or failed, or deleted) without our hearing of it
            if (claimPending(post.optimisticId)) dropPending(queryClient, post.optimisticId);
            if (row?.status === 'failed') notify.error({ title: UPLOAD_TEXTS.uploadFailed, description: row.failureReason ?? UPLOAD_TEXTS.failedToUpload });
            else refetch = true;
          }
          if (refetch) void utils.posts.feed.invalidate();
        },
        () => undefined,
      );
    }, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [queryClient, utils]);
}
