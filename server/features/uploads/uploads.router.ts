import { creatorProcedure, router } from '../../trpc/init';
import { unfinishedPosts } from './uploads.service';

/** The tus endpoint is /uploads (uploads.http.ts); this is what the upload screen asks besides. */
export const uploadsRouter = router({
  /**
   * The creator's posts still processing, and those that failed with their reason (at most 50,
   * newest first): after a reload the upload screen shows them with progress, Retry
   * (`posts.retryProcessing`) and Delete (`posts.delete`). UNAUTHORIZED 'Please sign in to upload
   * content', FORBIDDEN 'Only creators can upload content'.
   */
  unfinished: creatorProcedure.query(({ ctx }) => unfinishedPosts(ctx, ctx.user.id)),
});
