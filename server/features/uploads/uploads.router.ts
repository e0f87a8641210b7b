import { TRPCError } from '@trpc/server';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, router } from '../../trpc/init';
import { unfinishedPosts } from './uploads.service';

const creatorOnly = authedProcedureSaying(UPLOAD_TEXTS.signInRequired).use(({ ctx, next }) => {
  if (!ctx.user.isCreator) throw new TRPCError({ code: 'FORBIDDEN', message: UPLOAD_TEXTS.creatorsOnly });
  return next();
});

/** The tus endpoint is /uploads (server/http/uploads.ts); this is what the upload screen asks besides. */
export const uploadsRouter = router({
  /**
   * The creator's posts still processing, and those that failed with their reason (at most 50,
   * newest first): after a reload the upload screen shows them with progress, Retry
   * (`posts.retryProcessing`) and Delete (`posts.delete`).
   */
  unfinished: creatorOnly.query(({ ctx }) => unfinishedPosts(ctx, ctx.user.id)),
});
