import { attachmentLadderJobId, type AttachmentLadderJobs } from '../../common/jobs';
import type { DB } from '../../core/db/kysely';
import { addManyToOutbox, addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { StoredLadder } from '../streaming/ladders.queries';

/**
 * The HLS ladder of a chat video (issue 49 item 1, docs/media.md), on the attachment's row
 * (`ladder`, `ladder_keys`): queueing its job, recording it once, reading it for a playlist.
 */

const ladderEntry = (attachmentId: string) => ({
  queue: 'attachment-transcode' as const,
  name: 'build-attachment-ladder' as const,
  data: { attachmentId } satisfies AttachmentLadderJobs['build-attachment-ladder'],
  jobId: attachmentLadderJobId(attachmentId),
  // behind the chat files still waiting to become playable at all
  options: { priority: 10 },
});

/** The 'build-attachment-ladder' job, as an outbox row in `trx` (the change that made the video ready). */
export function queueAttachmentLadder(trx: DB, attachmentId: string): Promise<QueuedEntry> {
  return addToOutbox(trx, ladderEntry(attachmentId));
}

/**
 * The backfill's chat half (domain/streaming/backfill.ts): one 'build-attachment-ladder' outbox
 * row per ready chat video without a ladder (sent before ladders existed, or the demo's), `limit`
 * at a time after `after` (by id). An attachment queued already keeps its row (same jobId).
 */
export async function queueAttachmentLadderBackfill(db: DB, after: string | null, limit: number): Promise<{ entries: QueuedEntry[]; last: string | null }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('message_attachments')
      .select('id')
      .where('kind', '=', 'video')
      .where('status', '=', 'ready')
      .where('storage_key', 'is not', null)
      .where('ladder', 'is', null)
      .$if(after !== null, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(limit)
      .execute();
    const entries = await addManyToOutbox(trx, rows.map((r) => ladderEntry(r.id)));
    return { entries, last: rows.at(-1)?.id ?? null };
  });
}

/** The ready video a ladder is still to be made from: its MP4's key; null when gone, not a ready video, or done. */
export async function attachmentVideoWithoutLadder(db: DB, attachmentId: string): Promise<{ storageKey: string } | null> {
  const row = await db
    .selectFrom('message_attachments')
    .select('storage_key')
    .where('id', '=', attachmentId)
    .where('kind', '=', 'video')
    .where('status', '=', 'ready')
    .where('ladder', 'is', null)
    .executeTakeFirst();
  return row?.storage_key ? { storageKey: row.storage_key } : null;
}

/**
 * Records the ladder once all its objects are stored: 'gone' when the attachment was deleted
 * meanwhile (its deletion listed none of these keys: the caller deletes them), 'exists' when
 * another run recorded it first (the same keys: nothing to delete).
 */
export async function recordAttachmentLadder(db: DB, attachmentId: string, ladder: StoredLadder, keys: string[]): Promise<'recorded' | 'exists' | 'gone'> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('message_attachments').select('ladder').where('id', '=', attachmentId).forUpdate().executeTakeFirst();
    if (!row) return 'gone';
    if (row.ladder) return 'exists';
    await trx.updateTable('message_attachments').set({ ladder: JSON.stringify(ladder), ladder_keys: keys }).where('id', '=', attachmentId).execute();
    return 'recorded';
  });
}

export async function findAttachmentLadder(db: DB, attachmentId: string): Promise<StoredLadder | null> {
  const row = await db.selectFrom('message_attachments').select('ladder').where('id', '=', attachmentId).executeTakeFirst();
  return row?.ladder ?? null;
}
