import { sql } from 'kysely';
import type { MessageAttachmentDto } from '../../common/message-dtos';
import { messageMediaUrl, type AttachmentStatus, type MessageMediaKind } from '../../common/messages';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { Realtime } from '../../core/realtime/realtime';
import { noLiveRun } from '../processing/runs.queries';
import { messageUnlockedBy } from '../access/messaging.queries';
import { attachmentForViewer } from './message-view';

/**
 * Chat attachments between the server (upload, send) and the worker (processing): the row's
 * states, its DTO, and who hears that it is ready. Storage keys never leave this layer.
 */
export const attachmentSourceKey = (id: string, ext: string) => `messages/${id}/source.${ext}`;
/** A run's processed file: under the run's id, so that a second run never overwrites or deletes it. */
export const attachmentFileKey = (id: string, runId: string, ext: string) => `messages/${id}/${runId}/file.${ext}`;
/** The blurred preview the same run stores beside the file (a pay-per-view file shows it until bought). */
export const attachmentPreviewKey = (fileKey: string) => fileKey.replace(/\/[^/]+$/, '/preview.jpg');

/** Every stored object of an attachment row: the upload, the served file and its preview, a video's HLS ladder; for deletion. */
export function attachmentStoredKeys(row: { source_key: string | null; storage_key: string | null; ladder_keys: string[] }): string[] {
  return [row.source_key, row.storage_key, row.storage_key && attachmentPreviewKey(row.storage_key), ...row.ladder_keys].filter((k): k is string => Boolean(k));
}
/** Where a chat video's ladder file is stored: fixed per attachment and file (a retry overwrites a dead run's), found by the segment route from its name. */
export const attachmentLadderKey = (id: string, file: string) => `messages/${id}/hls/${file}`;

export function toAttachmentDto(a: {
  id: string;
  kind: MessageMediaKind;
  status: AttachmentStatus;
  contentType: string | null;
  fileName: string;
  byteSize: string | number;
  width: number | null;
  height: number | null;
  duration: string | number | null;
  failure: string | null;
}): MessageAttachmentDto {
  const ready = a.status === 'ready';
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    url: ready ? messageMediaUrl(a.id) : null,
    contentType: ready ? a.contentType : null,
    fileName: a.fileName,
    byteSize: Number(a.byteSize),
    width: a.width,
    height: a.height,
    durationSeconds: a.duration === null ? null : Number(a.duration),
    failureReason: a.status === 'failed' ? a.failure : null,
  };
}

/** The attachment with the message carrying it (if sent yet). */
export function findAttachment(db: DB, id: string) {
  return db
    .selectFrom('message_attachments as a')
    .leftJoin('messages as m', 'm.attachment_id', 'a.id')
    .selectAll('a')
    .select(['m.id as message_id', 'm.sender_id', 'm.recipient_id', 'm.price_cents', messageUnlockedBy('m.id', 'm.recipient_id').as('unlocked')])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachment>>>;

export function attachmentRowToDto(
  row: Pick<AttachmentRow, 'id' | 'kind' | 'status' | 'content_type' | 'original_filename' | 'byte_size' | 'width' | 'height' | 'duration_seconds' | 'failure_reason'>,
): MessageAttachmentDto {
  return toAttachmentDto({
    id: row.id,
    kind: row.kind,
    status: row.status,
    contentType: row.content_type,
    fileName: row.original_filename,
    byteSize: row.byte_size,
    width: row.width,
    height: row.height,
    duration: row.duration_seconds,
    failure: row.failure_reason,
  });
}

/**
 * What one user's chat attachments weigh (issue 23): how many are processing (each holds a slot
 * of the attachment queues), and the bytes of those not carried by any message (failed ones have
 * no file left). Read under the user's lock (lockCreator) when a new one is inserted.
 */
export async function attachmentLoad(db: DB, ownerId: string): Promise<{ processing: number; unsentBytes: number }> {
  const row = await db
    .selectFrom('message_attachments as a')
    .select([
      sql<string>`count(*) filter (where a.status = 'processing')`.as('processing'),
      sql<string>`coalesce(sum(a.byte_size) filter (where a.status <> 'failed' and not exists (select 1 from messages m where m.attachment_id = a.id)), 0)`.as(
        'unsent_bytes',
      ),
    ])
    .where('a.owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return { processing: Number(row.processing), unsentBytes: Number(row.unsent_bytes) };
}

/**
 * Attachments uploaded before `before` that no message carries, deleted in one statement (a
 * message sent at the same moment either takes the row first, and it stays, or finds it gone);
 * a page at a time, oldest first. Returns the files they held, for the caller to delete.
 */
export async function deleteUnsentAttachments(db: DB, before: Date, limit: number): Promise<{ id: string; keys: string[] }[]> {
  const rows = await db
    .deleteFrom('message_attachments')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('message_attachments as a')
        .select('a.id')
        .where('a.created_at', '<', before)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('messages as m').select('m.id').whereRef('m.attachment_id', '=', 'a.id'))))
        // a message to many holds its file from the start, before any copy is delivered
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('mass_messages as mm').select('mm.id').whereRef('mm.attachment_id', '=', 'a.id'))))
        .orderBy('a.created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'source_key', 'storage_key', 'ladder_keys'])
    .execute();
  return rows.map((r) => ({ id: r.id, keys: attachmentStoredKeys(r) }));
}

/**
 * The processed file takes effect; only from 'processing' and while `runId` holds the attachment
 * (a second run, or one that lost it to another, changes nothing).
 */
export async function completeAttachment(
  db: DB,
  id: string,
  runId: string,
  file: { storageKey: string; contentType: string; byteSize: number; width: number | null; height: number | null; durationSeconds: number | null },
): Promise<boolean> {
  const row = await db
    .updateTable('message_attachments')
    .set({
      status: 'ready',
      storage_key: file.storageKey,
      content_type: file.contentType,
      // from here on, the size of the file served
      byte_size: file.byteSize,
      width: file.width,
      height: file.height,
      duration_seconds: file.durationSeconds,
      source_key: null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .where('processing_run', '=', runId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function failAttachment(db: DB, id: string, reason: string): Promise<boolean> {
  const row = await db
    .updateTable('message_attachments')
    .set({ status: 'failed', failure_reason: reason, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `message:attachment` to the uploader's tabs and, once a message carries the file, to its
 * recipient: both patch the message (or the composer's pending file) with the new state, each as
 * they may see it (a pay-per-view file not bought reaches its recipient locked: message-view.ts).
 */
export async function announceAttachment(db: DB, realtime: Pick<Realtime, 'toUser'>, id: string): Promise<void> {
  const row = await findAttachment(db, id);
  if (!row) return;
  const attachment = attachmentRowToDto(row);
  const messageId = row.message_id ?? null;
  realtime.toUser(row.owner_id, 'message:attachment', { attachment, messageId });
  if (row.sender_id && row.recipient_id) {
    const sale = { senderId: row.sender_id, recipientId: row.recipient_id, priceCents: readCents(row.price_cents), unlocked: Boolean(row.unlocked) };
    realtime.toUser(row.recipient_id, 'message:attachment', { attachment: attachmentForViewer(row.recipient_id, sale, attachment), messageId });
  }
}

/**
 * Attachments still 'processing' with no change for `idleMs` and no run alive (no heartbeat
 * within `leaseMs`): their job may be lost. Oldest first.
 */
export function findIdleProcessingAttachments(db: DB, idleMs: number, leaseMs: number, limit: number) {
  return db
    .selectFrom('message_attachments')
    .select(['id', 'kind'])
    .where('status', '=', 'processing')
    .where('updated_at', '<', new Date(Date.now() - idleMs))
    .where(noLiveRun(leaseMs))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

export async function touchAttachment(db: DB, id: string): Promise<void> {
  await db.updateTable('message_attachments').set({ updated_at: new Date() }).where('id', '=', id).where('status', '=', 'processing').execute();
}
