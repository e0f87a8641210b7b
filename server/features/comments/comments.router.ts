import { AddCommentInput, ListCommentsInput } from '../../../common/post-schemas';
import { COMMENT_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, publicProcedure, router } from '../../trpc/init';
import * as comments from './comments.service';

export const commentsRouter = router({
  /** All comments of a visible post, oldest first, flat with parentId; NOT_FOUND 'Post not found' otherwise. */
  list: publicProcedure.input(ListCommentsInput).query(({ ctx, input }) => comments.listComments(ctx, ctx.user?.id ?? null, input.postId)),

  /**
   * Adds a comment or reply. Signed out: UNAUTHORIZED 'Please sign in to comment'; empty or too
   * long text: BAD_REQUEST (validation); a parent of another post: BAD_REQUEST.
   */
  add: authedProcedureSaying(COMMENT_TEXTS.signInRequired.description)
    .input(AddCommentInput)
    .mutation(({ ctx, input }) => comments.addComment(ctx, ctx.user, input)),
});
