import type { QueueHandlers } from '../registry';

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
};
