import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { COMMENT_TEXTS } from '../../../common/texts';
import {
  addCommentToCache,
  bumpPostCount,
  clientCommentId,
  removeCommentFromCache,
  replaceCommentInCache,
  setPostCounts,
  type Comment,
} from '../../lib/post-cache';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';

/**
 * Comment add (spec part 1 §4, §8): signed out → 'Authentication required'; otherwise the comment
 * is appended at once under a client id and the count rises, the server's row replaces it
 * ('Comment added'), or on failure it is removed again ('Error - Failed to add comment').
 * Resolves true when the comment was accepted.
 */
export function useAddComment(postId: string) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const add = trpc.comments.add.useMutation();

  return useCallback(
    async (text: string, parentId: string | null): Promise<boolean> => {
      const me = utils.auth.me.getData();
      if (!me) {
        notify.error(COMMENT_TEXTS.signInRequired);
        return false;
      }
      const clientId = clientCommentId();
      const optimistic: Comment = {
        id: clientId,
        postId,
        parentId,
        text,
        createdAt: new Date(),
        author: { id: me.id, username: me.username, displayName: me.displayName, avatarUrl: me.avatarUrl },
      };
      addCommentToCache(queryClient, postId, optimistic);
      bumpPostCount(queryClient, postId, 'comments', 1);
      try {
        const result = await add.mutateAsync({ postId, text, parentId });
        replaceCommentInCache(queryClient, postId, clientId, result.comment);
        setPostCounts(queryClient, postId, { comments: result.comments });
        notify.success(COMMENT_TEXTS.added);
        return true;
      } catch (error) {
        console.error('Could not add the comment', error);
        removeCommentFromCache(queryClient, postId, clientId);
        bumpPostCount(queryClient, postId, 'comments', -1);
        // the creator closed comments (Content Settings): say so rather than 'Failed to add comment'
        notify.error(errorCode(error) === 'FORBIDDEN' && isServerError(error) ? { title: 'Error', description: error.message } : COMMENT_TEXTS.addFailed);
        return false;
      }
    },
    [postId, queryClient, utils, add],
  );
}
