import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { POST_TEXTS } from '../../../common/texts';
import { removePostFromCaches, type Post } from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/**
 * Post deletion (spec part 1 §4, §8): the post leaves the screen at once (while its `posts.delete`
 * mutation runs, lists leave it out: usePostsBeingDeleted), then the server deletes it. Success → 'Post deleted' and `onDeleted`
 * (the detail view goes to /); refusal → 'Permission denied'; any other failure → 'Error -
 * Failed to delete post...' and the post comes back.
 */
export function useDeletePost(post: Post, onDeleted?: () => void) {
  const queryClient = useQueryClient();
  const del = trpc.posts.delete.useMutation();
  const postId = post.id;

  return useCallback(async () => {
    try {
      await del.mutateAsync({ postId });
      removePostFromCaches(queryClient, postId);
      notify.success(POST_TEXTS.deleted);
      onDeleted?.();
    } catch (error) {
      notify.error(errorCode(error) === 'FORBIDDEN' ? POST_TEXTS.deleteNotAllowed : POST_TEXTS.deleteFailed);
    }
  }, [postId, del, queryClient, onDeleted]);
}
