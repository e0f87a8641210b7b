import type { DB } from '../../core/db/kysely';
import type { Realtime } from '../../core/realtime/realtime';
import { announcePostFailed, type AnnouncedPost } from '../announcements/post-events';
import { failProcessing } from './processing.queries';

/**
 * A post being processed fails for good: 'failed' with the reason its creator reads, and the
 * creator hears it (post:failed). Only a post still 'processing' changes, so a run that finds it
 * failed, finished or deleted already says nothing. False then.
 */
export async function failPost(deps: { db: DB; realtime: Realtime }, post: AnnouncedPost, reason: string): Promise<boolean> {
  const failed = await failProcessing(deps.db, post.postId, reason);
  if (failed) announcePostFailed(deps.realtime, post, reason);
  return failed;
}
