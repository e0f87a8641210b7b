import type { MessageAttachmentDto } from '../../common/message-dtos';
import { messageMediaUrl, type AttachmentStatus, type MessageMediaKind } from '../../common/messages';
import type { DB } from '../../core/db/kysely';
import type { Realtime } from '../../core/realtime/realtime';

/**
 * Chat attachments between the server (upload, send) and the worker (processing): the row's
 * states, its DTO, and who hears that it is ready. Storage keys never leave this layer.
 */
export const attachmentSourceKey = (id: string, ext: string) => `messages/${id}/source.${ext}`;
export const attachmentFileKey = (id: string, ext: string) => `messages/${id}/file.${ext}`;

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
    .select(['m.id as message_id', 'm.recipient_id'])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachment>>>;

export function attachmentRowToDto(row: AttachmentRow): MessageAttachmentDto {
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

/** The processed file takes effect; only from 'processing' (a second run changes nothing). */
export async function completeAttachment(
  db: DB,
  id: string,
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
 * recipient: both patch the message (or the composer's pending file) with the new state.
 */
export async function announceAttachment(db: DB, realtime: Pick<Realtime, 'toUser'>, id: string): Promise<void> {
  const row = await findAttachment(db, id);
  if (!row) return;
  const event = { attachment: attachmentRowToDto(row), messageId: row.message_id ?? null };
  realtime.toUser(row.owner_id, 'message:attachment', event);
  if (row.recipient_id) realtime.toUser(row.recipient_id, 'message:attachment', event);
}

/** Attachments still 'processing' with no change for `idleMs` (their job may be lost), oldest first. */
export function findIdleProcessingAttachments(db: DB, idleMs: number, limit: number) {
  return db
    .selectFrom('message_attachments')
    .select(['id', 'kind'])
    .where('status', '=', 'processing')
    .where('updated_at', '<', new Date(Date.now() - idleMs))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

export async function touchAttachment(db: DB, id: string): Promise<void> {
  await db.updateTable('message_attachments').set({ updated_at: new Date() }).where('id', '=', id).where('status', '=', 'processing').execute();
}
