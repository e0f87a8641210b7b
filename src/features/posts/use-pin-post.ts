import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useCallback } from 'react';
import { POST_UNLOCK_TEXTS } from '../../../common/post-unlock-texts';
import { updatePost, type Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { errorCode, isTrpcError, trpc } from '../../lib/trpc';

/**
 * Pin / Unpin (issue 29 item 5): the server decides (owner only, published only, at most 3), its
 * refusal is the toast ('You can pin at most 3 posts. Unpin one first.'). On success the post's
 * badge changes everywhere it is cached and the profile lists refetch, since pinning reorders them.
 */
export function usePinPost(post: Post) {
  const queryClient = useQueryClient();
  const pin = trpc.posts.pin.useMutation();
  const postId = post.id;
  const pinned = !!post.pinnedAt;

  return useCallback(async () => {
    try {
      await pin.mutateAsync({ postId, pinned: !pinned });
      updatePost(queryClient, postId, (p) => ({ ...p, pinnedAt: pinned ? null : new Date() }));
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.profiles.posts) });
      notify.success({ title: pinned ? POST_UNLOCK_TEXTS.unpinDone : POST_UNLOCK_TEXTS.pinDone });
    } catch (error) {
      // CONFLICT (the limit), BAD_REQUEST (not published), FORBIDDEN: the server's own words
      const refused = isTrpcError(error) && ['CONFLICT', 'BAD_REQUEST', 'FORBIDDEN'].includes(errorCode(error) ?? '');
      notify.error({ title: 'Error', description: refused ? error.message : POST_UNLOCK_TEXTS.pinFailed });
    }
  }, [postId, pinned, pin, queryClient]);
}
