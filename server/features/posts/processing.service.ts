import { TRPCError } from '@trpc/server';
import { UPLOAD_TEXTS, type ToastText } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { applyPostEffects } from '../../../domain/posts/effects';
import { removeFailedFileAndRetry, retryPost } from '../../../domain/posts/transitions';
import { MULTI_FILE_TEXTS } from '../../../common/multi-file-texts';
import { countProcessingPosts, lockCreator } from '../../../domain/processing/processing-limit.queries';
import { postNotFound, requireVisiblePost } from '../../shared/visible-post';

/**
 * The creator retries a post whose processing failed: it goes back to 'processing' (reason
 * cleared) and its media job is queued again (the failed job is replaced). Others, and unknown
 * ids: NOT_FOUND 'Post not found'; a post that has not failed: BAD_REQUEST 'Only a failed post
 * can be retried'. A retry counts against MAX_PROCESSING_POSTS_PER_CREATOR like an upload does:
 * TOO_MANY_REQUESTS with the upload's words ('Too many uploads processing - ...') when the creator
 * has that many processing; the creator's row is locked while counting, as at an upload's finish,
 * so retries and finishes at once cannot pass the limit together. With Redis unreachable the
 * retry still stands (it is committed before the job is queued): the answer carries `notice`
 * ('Retry saved' ...) and the lost-job sweep queues the post once Redis is back.
 */
export async function retryProcessing(
  deps: Pick<AppDeps, 'db' | 'queues' | 'config' | 'log' | 'realtime'>,
  userId: string,
  postId: string,
): Promise<{ postId: string; status: 'processing'; notice?: ToastText }> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  if (!access.isOwner) throw postNotFound();
  const limit = deps.config.MAX_PROCESSING_POSTS_PER_CREATOR;
  // the throws roll the reopening back
  const effects = await deps.db.transaction().execute(async (trx) => {
    await lockCreator(trx, userId);
    const retried = await retryPost(trx, postId, { creatorId: userId });
    if (!retried) throw new TRPCError({ code: 'BAD_REQUEST', message: UPLOAD_TEXTS.retryNotPossible });
    if ((await countProcessingPosts(trx, userId)) > limit) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: processingLimitMessage(limit) });
    }
    return retried;
  });
  // bounded, as at an upload's finish: with Redis away the answer comes within seconds
  const { unqueued } = await applyPostEffects(deps, effects);
  // the retry is committed: the post is 'processing' in PostgreSQL, and the lost-job sweep
  // queues it once Redis answers again; the creator is told so instead of 'try again'
  if (unqueued.length > 0) return { postId, status: 'processing', notice: UPLOAD_TEXTS.retrySavedForLater };
  return { postId, status: 'processing' };
}

/**
 * The creator removes the failed file of their failed post of several files, keeping the others
 * and the text; the post is then processed again (its ready files are kept) and publishes as it
 * was meant to. Another user's post: NOT_FOUND; a file that has not failed, or the post's last
 * file: BAD_REQUEST. Its stored bytes go by the outbox-free best effort delete (nobody serves them).
 */
export async function removeFailedFile(
  deps: Pick<AppDeps, 'db' | 'queues' | 'config' | 'log' | 'realtime' | 'storage'>,
  userId: string,
  postId: string,
  position: number,
): Promise<{ postId: string; status: 'processing' }> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  if (!access.isOwner) throw postNotFound();
  const removed = await removeFailedFileAndRetry(deps.db, userId, postId, position);
  if (!removed) throw new TRPCError({ code: 'BAD_REQUEST', message: MULTI_FILE_TEXTS.removeNotPossible });
  for (const key of removed.keys) await deps.storage.delete(key).catch(() => {});
  await applyPostEffects(deps, removed.effects);
  return { postId, status: 'processing' };
}

/** The words the tus refusal uses too ('Too many uploads processing - ...'). */
function processingLimitMessage(limit: number): string {
  const text = UPLOAD_TEXTS.tooManyProcessing(limit);
  return `${text.title} - ${text.description}`;
}
