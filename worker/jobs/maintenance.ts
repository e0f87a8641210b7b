import { mediaQueueFor, processPostJobId } from '../../common/jobs';
import { userRoom } from '../../common/socket-events';
import { UPLOAD_TEXTS } from '../../common/texts';
import { failProcessing, findStaleProcessingPosts, touchPost } from '../../domain/processing/processing.queries';
import { enqueueProcessPost } from '../../core/queues/media';
import path from 'node:path';
import type { QueueHandlers } from '../registry';
import { sweepIncomingUploads } from './uploads-sweep';

/** A post this long in 'processing' without a change is checked for a lost job. */
const STALE_PROCESSING_MINUTES = 30;

export const maintenanceHandlers: QueueHandlers<'maintenance'> = {
  async 'purge-expired'(_job, { db }) {
    const now = new Date();
    const sessions = await db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst();
    const tokens = await db.deleteFrom('email_tokens').where('expires_at', '<', now).executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), tokens: Number(tokens.numDeletedRows) };
  },

  /**
   * Removes the files of a deleted post. Idempotent: deleting a missing file is fine, so a retry
   * after a partial run finishes the rest. Refuses to touch files of a post that still exists
   * (a job queued by mistake must not strip a live post of its media).
   */
  async 'delete-post-files'(job, { db, storage, log }) {
    const { postId, keys } = job.data;
    const alive = await db.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst();
    if (alive) {
      log.warn({ postId }, 'delete-post-files skipped: the post still exists');
      return { skipped: true, deleted: 0 };
    }
    for (const key of keys) await storage.delete(key);
    return { skipped: false, deleted: keys.length };
  },

  /** Abandoned partial uploads (older than UPLOAD_EXPIRY_HOURS) leave UPLOADS_DIR. */
  async 'expire-uploads'(_job, { config }) {
    return sweepIncomingUploads(path.resolve(config.UPLOADS_DIR), config.UPLOAD_EXPIRY_HOURS * 3_600_000);
  },

  /**
   * Nothing in Redis is the only copy: a post long in 'processing' whose job is gone (Redis lost
   * it, or the server stopped between the commit and the enqueue) is queued again; one whose job
   * failed for good without marking it (a worker killed on its last attempt) is marked failed.
   */
  async 'requeue-processing'(_job, { db, queues, realtime, log }) {
    const stale = await findStaleProcessingPosts(db, STALE_PROCESSING_MINUTES, 100);
    let requeued = 0;
    let failed = 0;
    for (const post of stale) {
      const job = await queues[mediaQueueFor(post.media_kind)].getJob(processPostJobId(post.id));
      const state = job ? await job.getState() : 'missing';
      if (state === 'missing' || state === 'unknown' || state === 'completed') {
        await enqueueProcessPost(queues, post.id, post.media_kind);
        await touchPost(db, post.id);
        requeued++;
      } else if (state === 'failed') {
        if (await failProcessing(db, post.id, UPLOAD_TEXTS.processingFailed)) {
          realtime.toRooms(userRoom(post.creator_id), 'post:failed', {
            postId: post.id,
            optimisticId: post.optimistic_id,
            reason: UPLOAD_TEXTS.processingFailed,
          });
        }
        failed++;
      }
    }
    if (requeued || failed) log.warn({ requeued, failed }, 'requeue-processing found posts without a live job');
    return { checked: stale.length, requeued, failed };
  },
};
