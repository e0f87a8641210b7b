import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { POST_TEXTS, UPLOAD_TEXTS } from '../../../common/texts';
import { onPostEvent } from '../../lib/socket';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { findPending, pendingOlderThan, replaceOptimistic, setProcessingProgress, takePending } from './pending-posts';

/** How long a published upload may stay 'Processing...' before the client asks the server itself. */
export const PUBLISH_WAIT_MS = 60_000;
const CHECK_EVERY_MS = 15_000;
const FEED_KEY = [['posts', 'feed']] as const;
const DRAFTS_KEY = [['profiles', 'drafts']] as const;

/**
 * The creator's side of the media pipeline's events (mounted once, in the app shell, so it works
 * on every screen):
 * - `post:published` with the optimisticId of an upload from this tab (or one the upload screen
 *   listed as processing): 'Post published - Your content is now live!', and the real post
 *   replaces the 'Publishing' card in the feed;
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

  useEffect(
    () =>
      onPostEvent((event) => {
        const me = utils.auth.me.getData();
        if (!me) return;
        switch (event.type) {
          case 'post:published': {
            const { postId, creatorId, optimisticId } = event.payload;
            if (creatorId !== me.id) return;
            const listed = utils.uploads.unfinished.getData()?.some((u) => u.postId === postId);
            void utils.uploads.unfinished.invalidate();
            if (!optimisticId || (!findPending(optimisticId) && !listed)) return;
            if (!takePending(optimisticId)) return;
            notify.success(POST_TEXTS.published);
            utils.posts.byId.fetch({ id: postId }, { staleTime: 0 }).then(
              (post) => replaceOptimistic(queryClient, optimisticId, post),
              () => replaceOptimistic(queryClient, optimisticId, null),
            );
            return;
          }
          case 'post:failed': {
            const { optimisticId, reason } = event.payload;
            if (optimisticId && takePending(optimisticId)) replaceOptimistic(queryClient, optimisticId, null);
            notify.error({ title: UPLOAD_TEXTS.uploadFailed, description: reason });
            void utils.uploads.unfinished.invalidate();
            return;
          }
          case 'post:draft-ready': {
            void utils.uploads.unfinished.invalidate();
            void queryClient.invalidateQueries({ queryKey: DRAFTS_KEY });
            return;
          }
          case 'post:progress': {
            setProcessingProgress(event.payload.postId, event.payload.percent);
            return;
          }
          default:
            return;
        }
      }),
    [queryClient, utils],
  );

  useEffect(() => {
    const timer = setInterval(() => {
      const waiting = pendingOlderThan(PUBLISH_WAIT_MS);
      if (waiting.length === 0) return;
      utils.uploads.unfinished.fetch(undefined, { staleTime: 0 }).then(
        (unfinished) => {
          let refetch = false;
          for (const post of waiting) {
            const row = unfinished.find((u) => u.optimisticId === post.optimisticId || (post.postId !== null && u.postId === post.postId));
            if (row?.status === 'processing') continue;
            // published (or failed, or deleted) without our hearing of it
            if (takePending(post.optimisticId)) replaceOptimistic(queryClient, post.optimisticId, null);
            if (row?.status === 'failed') notify.error({ title: UPLOAD_TEXTS.uploadFailed, description: row.failureReason ?? UPLOAD_TEXTS.failedToUpload });
            else refetch = true;
          }
          if (refetch) void queryClient.invalidateQueries({ queryKey: FEED_KEY });
        },
        () => undefined,
      );
    }, CHECK_EVERY_MS);
    return () => clearInterval(timer);
  }, [queryClient, utils]);
}
