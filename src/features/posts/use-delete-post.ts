import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { POST_TEXTS } from '../../../common/texts';
import { queuePostDeletion, removePostFromCaches, settlePostDeletion, type Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/**
 * Post deletion (spec part 1 §4, §8): the post leaves the screen at once (its id joins the queue
 * of pending deletions), then the server deletes it. Success → 'Post deleted' and `onDeleted`
 * (the detail view goes to /); refusal → 'Permission denied'; any other failure → 'Error -
 * Failed to delete post...' and the post comes back.
 */
export function useDeletePost(post: Post, onDeleted?: () => void) {
  const queryClient = useQueryClient();
  const del = trpc.posts.delete.useMutation();
  const postId = post.id;

  return useCallback(async () => {
    queuePostDeletion(postId);
    try {
      await del.mutateAsync({ postId });
      settlePostDeletion(postId, 'deleted');
      removePostFromCaches(queryClient, postId);
      notify.success(POST_TEXTS.deleted);
      onDeleted?.();
    } catch (error) {
      settlePostDeletion(postId, 'restored');
      notify.error(errorCode(error) === 'FORBIDDEN' ? POST_TEXTS.deleteNotAllowed : POST_TEXTS.deleteFailed);
    }
  }, [postId, del, queryClient, onDeleted]);
}
