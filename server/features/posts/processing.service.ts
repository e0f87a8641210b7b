import { TRPCError } from '@trpc/server';
import { UPLOAD_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import { enqueueProcessPost } from '../../../core/queues/media';
import { postNotFound, requireVisiblePost } from './posts.service';

/**
 * The creator retries a post whose processing failed: it goes back to 'processing' (reason
 * cleared) and its media job is queued again (the failed job is replaced). Others, and unknown
 * ids: NOT_FOUND 'Post not found'; a post that has not failed: BAD_REQUEST 'Only a failed post
 * can be retried'.
 */
export async function retryProcessing(
  deps: Pick<AppDeps, 'db' | 'queues'>,
  userId: string,
  postId: string,
): Promise<{ postId: string; status: 'processing' }> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  if (!access.isOwner) throw postNotFound();
  const reopened = await deps.db
    .updateTable('posts')
    .set({ status: 'processing', failure_reason: null, updated_at: new Date() })
    .where('id', '=', postId)
    .where('creator_id', '=', userId)
    .where('status', '=', 'failed')
    .returning(['media_kind'])
    .executeTakeFirst();
  if (!reopened) throw new TRPCError({ code: 'BAD_REQUEST', message: UPLOAD_TEXTS.retryNotPossible });
  await enqueueProcessPost(deps.queues, postId, reopened.media_kind);
  return { postId, status: 'processing' };
}
