import { EditPostInput, PinPostInput } from '../../../common/post-edit';
import { FeedInput, PostByIdInput, PostFileInput, PostIdInput } from '../../../common/post-schemas';
import { LIKE_TEXTS } from '../../../common/texts';
import { authedProcedure, authedProcedureSaying, publicProcedure, router } from '../../trpc/init';
import * as posts from './posts.service';
import { removeFailedFile, retryProcessing } from './processing.service';

const likeProcedure = authedProcedureSaying(LIKE_TEXTS.signInRequired);

export const postsRouter = router({
  /**
   * The home feed for the viewer (signed in or not): published posts of visible creators,
   * newest first, `limit` (default 5, max 20) after `cursor`. `nextCursor` is null on the last page.
   */
  feed: publicProcedure.input(FeedInput).query(({ ctx, input }) => posts.feed(ctx, ctx.user?.id ?? null, input)),

  /** One post, or NOT_FOUND 'Post not found' (also for a post the viewer may not see). */
  byId: publicProcedure.input(PostByIdInput).query(({ ctx, input }) => posts.postById(ctx, ctx.user?.id ?? null, input.id)),

  /** Idempotent; returns the new like count. NOT_FOUND for a post the user may not see. */
  like: likeProcedure.input(PostIdInput).mutation(({ ctx, input }) => posts.like(ctx, ctx.user.id, input.postId)),

  /** Idempotent (unliking a post one does not like is success); returns the new like count. */
  unlike: likeProcedure.input(PostIdInput).mutation(({ ctx, input }) => posts.unlike(ctx, ctx.user.id, input.postId)),

  /** The creator deletes their post; anyone else gets FORBIDDEN 'You can only delete your own posts'. */
  delete: authedProcedure.input(PostIdInput).mutation(({ ctx, input }) => posts.deletePost(ctx, ctx.user.id, input.postId)),

  /**
   * The creator retries a post whose media processing failed: back to 'processing', job queued
   * again. NOT_FOUND 'Post not found' for others; BAD_REQUEST 'Only a failed post can be retried'.
   */
  /** The owner edits title, text, hashtags, premium flag and unlock price; others FORBIDDEN. Open pages hear `post:updated`. */
  edit: authedProcedure.input(EditPostInput).mutation(({ ctx, input }) => posts.editPost(ctx, ctx.user.id, input)),

  /** The owner pins (at most 3) or unpins a published post; CONFLICT past the limit. */
  pin: authedProcedure.input(PinPostInput).mutation(({ ctx, input }) => posts.pinPost(ctx, ctx.user.id, input)),

  retryProcessing: authedProcedure.input(PostIdInput).mutation(({ ctx, input }) => retryProcessing(ctx, ctx.user.id, input.postId)),

  /** The creator removes a failed file of their failed post of several files; the rest is processed again and publishes. */
  removeFailedFile: authedProcedure.input(PostFileInput).mutation(({ ctx, input }) => removeFailedFile(ctx, ctx.user.id, input.postId, input.position)),
});
