import { randomUUID } from 'node:crypto';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';

/** The job that removes the files listed under one batch of storage_deletions (one batch per deletion). */
export const deleteUserFilesJobId = (batch: string) => `delete-user-files-${batch}`;

/**
 * In a deletion's transaction: `keys` listed in storage_deletions under a batch of their own, and
 * the outbox row of the job that removes them (dispatched after the commit; the relay queues it if
 * Redis is away or loses it). The batch is a fresh id, never a user's, so once the files are
 * gone no row names a deleted account. The job deletes a page at a time, each page's rows with its
 * files, so a worker killed mid-way leaves only what is still to do. Used by account and data
 * deletion and by a file deleted from the media vault alike.
 */
export async function queueStoredFileDeletion(trx: DB, keys: string[]): Promise<QueuedEntry> {
  const batch = randomUUID();
  for (let i = 0; i < keys.length; i += 500) {
    await trx
      .insertInto('storage_deletions')
      .values(keys.slice(i, i + 500).map((storage_key) => ({ storage_key, batch })))
      .onConflict((oc) => oc.column('storage_key').doNothing())
      .execute();
  }
  return addToOutbox(trx, { queue: 'maintenance', name: 'delete-user-files', data: { batch }, jobId: deleteUserFilesJobId(batch), options: { removeOnComplete: true } });
}
