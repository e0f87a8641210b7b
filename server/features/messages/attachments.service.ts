import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { Transform, type Readable } from 'node:stream';
import { attachmentQueueFor, messageAttachmentJobId } from '../../../common/jobs';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MEBIBYTE } from '../../../common/file-size';
import {
  MESSAGE_ATTACHMENT_EXTENSIONS,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES,
  MESSAGE_UPLOAD_LIMIT,
} from '../../../common/messages';
import { MESSAGE_TEXTS, SERVER_TEXTS, UPLOAD_TEXTS } from '../../../common/texts';
import { textProblem } from '../../../common/text-rules';
import { fileExtension, uploadRuleFor } from '../../../common/uploads';
import type { AppDeps } from '../../../core/deps';
import type { DB } from '../../../core/db/kysely';
import { attachmentFileKey, attachmentLoad, attachmentRowToDto, attachmentSourceKey } from '../../../domain/messaging/attachments';
import { findOwnProcessedFiles } from '../../../domain/posts/vault.queries';
import type { VaultFileRef } from '../../../common/vault-schemas';
import { VAULT_TEXTS } from '../../../common/vault-texts';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import { lockCreator } from '../../../domain/processing/processing-limit.queries';
import { hitRateLimit } from '../../auth/rate-limit';

/** A refused upload: HTTP status, code and the words the client shows. */
export class AttachmentRefusal extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

class TooLarge extends Error {}

/**
 * What one user may have in flight (issue 23), so that no fan can fill the attachment queues or
 * the storage: at most MAX_PROCESSING_ATTACHMENTS_PER_USER files processing, and the files not
 * sent in any message (deleted after UNSENT_ATTACHMENT_TTL_HOURS) within
 * MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES, this one (`bytes`) included. 429 with the reason.
 */
async function checkAttachmentRoom(db: DB, config: AppDeps['config'], userId: string, bytes: number): Promise<void> {
  const load = await attachmentLoad(db, userId);
  const limit = config.MAX_PROCESSING_ATTACHMENTS_PER_USER;
  if (load.processing >= limit) throw new AttachmentRefusal(429, 'TOO_MANY_PROCESSING', MESSAGE_TEXTS.attachmentsProcessing(limit));
  if (load.unsentBytes + bytes > MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES) {
    const text = MESSAGE_TEXTS.unsentAttachmentsFull(MESSAGE_UNSENT_ATTACHMENTS_MAX_BYTES / MEBIBYTE, config.UNSENT_ATTACHMENT_TTL_HOURS);
    throw new AttachmentRefusal(429, 'UNSENT_QUOTA', text);
  }
}

/**
 * A chat attachment's upload (spec part 2 §5): a file of an allowed kind (images, video, audio,
 * pdf, doc, docx) of at most 10 MB, counted as it streams in (a lying Content-Length changes
 * nothing), stored privately as the upload and queued for the worker on the attachments' own
 * queues, which checks its bytes and makes it safe. The client may send the message at once; it
 * shows 'processing' until then. A user's files in flight are bounded (checkAttachmentRoom).
 */
export async function receiveAttachment(
  deps: Pick<AppDeps, 'db' | 'redis' | 'config' | 'storage' | 'queues' | 'log'>,
  userId: string,
  upload: { name: string | undefined; declaredLength: number | null; body: Readable },
): Promise<MessageAttachmentDto> {
  const name = (upload.name ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  const ext = fileExtension(name);
  const rule = uploadRuleFor(name);
  if (!name || name.length > 255 || textProblem(name, 'single-line') || !rule || !(MESSAGE_ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new AttachmentRefusal(415, 'INVALID_TYPE', MESSAGE_TEXTS.attachmentInvalidType);
  }
  if (upload.declaredLength !== null && upload.declaredLength > MESSAGE_ATTACHMENT_MAX_BYTES) {
    throw new AttachmentRefusal(413, 'TOO_LARGE', MESSAGE_TEXTS.attachmentTooLarge);
  }
  let limited;
  try {
    limited = await hitRateLimit(deps.redis, deps.config.REDIS_PREFIX, 'message-upload', [`user:${userId}`], MESSAGE_UPLOAD_LIMIT);
  } catch {
    throw new AttachmentRefusal(503, 'UNAVAILABLE', SERVER_TEXTS.unavailable);
  }
  if (!limited.allowed) throw new AttachmentRefusal(429, 'TOO_MANY_REQUESTS', MESSAGE_TEXTS.uploadRateLimited, limited.retryAfterSeconds);
  // before the bytes travel (as far as the declared length tells), and again under the user's lock below
  await checkAttachmentRoom(deps.db, deps.config, userId, upload.declaredLength ?? 0);

  const id = randomUUID();
  const sourceKey = attachmentSourceKey(id, rule.ext);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > MESSAGE_ATTACHMENT_MAX_BYTES) return done(new TooLarge());
      done(null, chunk);
    },
  });
  upload.body.on('error', (error) => counter.destroy(error));
  try {
    await deps.storage.put(sourceKey, upload.body.pipe(counter), rule.contentType);
  } catch (error) {
    await deps.storage.delete(sourceKey).catch(() => {});
    if (error instanceof TooLarge) throw new AttachmentRefusal(413, 'TOO_LARGE', MESSAGE_TEXTS.attachmentTooLarge);
    throw error;
  }
  if (received === 0) {
    await deps.storage.delete(sourceKey).catch(() => {});
    throw new AttachmentRefusal(400, 'EMPTY', UPLOAD_TEXTS.emptyFile);
  }

  let row;
  try {
    row = await deps.db.transaction().execute(async (trx) => {
      // two uploads of one user at once are counted one after the other
      await lockCreator(trx, userId);
      await checkAttachmentRoom(trx, deps.config, userId, received);
      return trx
        .insertInto('message_attachments')
        .values({ id, owner_id: userId, kind: rule.mediaKind, original_filename: name, byte_size: received, source_key: sourceKey })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    await deps.storage.delete(sourceKey).catch(() => {});
    throw error;
  }
  try {
    await deps.queues.add(attachmentQueueFor(rule.mediaKind), 'process-message-attachment', { attachmentId: id }, { jobId: messageAttachmentJobId(id) });
  } catch (error) {
    // no job, no file: say so now rather than leave it 'processing' for ever
    deps.log.warn({ err: error, attachmentId: id }, 'could not queue a message attachment');
    await deps.db.updateTable('message_attachments').set({ status: 'failed', failure_reason: SERVER_TEXTS.unavailable }).where('id', '=', id).execute();
    await deps.storage.delete(sourceKey).catch(() => {});
    throw new AttachmentRefusal(503, 'UNAVAILABLE', SERVER_TEXTS.unavailable);
  }
  // as inserted ('processing'): no message carries it yet
  return attachmentRowToDto(row);
}

/**
 * A chat attachment from the sender's media vault (issue 29 item 3): no upload, the vault file's
 * stored object is copied under the attachment's own key (store-side where the driver can), so
 * the message owns its file whatever later happens to the vault's, and it is 'ready' at once.
 * From there it is an attachment like any uploaded one: sent with or without a price, locked
 * and unlocked alike. FORBIDDEN when the file is not in one of the caller's processed posts
 * (another creator's); a kind chat does not take is refused; the unsent-bytes bound applies.
 */
export async function attachFromVault(
  deps: Pick<AppDeps, 'db' | 'config' | 'storage'>,
  userId: string,
  ref: VaultFileRef,
): Promise<MessageAttachmentDto> {
  const original = (await findOwnProcessedFiles(deps.db, userId, [ref])).find((r) => r.variant === 'original');
  if (!original) throw new TRPCError({ code: 'FORBIDDEN', message: VAULT_TEXTS.notYours });
  // the stored object's type decides (a processed .avi is an MP4), and names the copy
  const type = original.content_type.split(';')[0]!.trim();
  const ext = MESSAGE_ATTACHMENT_EXTENSIONS.find((e) => uploadRuleFor(`file.${e}`)?.contentType === type);
  if (!ext) throw new TRPCError({ code: 'BAD_REQUEST', message: VAULT_USE_TEXTS.notForMessages });
  const stem = original.filename.replace(/\.[^.]*$/, '') || 'file';
  const bytes = Number(original.byte_size);
  const roomOrRefuse = async (db: DB) => {
    try {
      await checkAttachmentRoom(db, deps.config, userId, bytes);
    } catch (error) {
      if (error instanceof AttachmentRefusal) throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: error.message });
      throw error;
    }
  };
  await roomOrRefuse(deps.db);

  const id = randomUUID();
  const key = attachmentFileKey(id, 'vault', ext);
  if (deps.storage.copy) {
    await deps.storage.copy(original.storage_key, key, original.content_type);
  } else {
    const source = await deps.storage.get(original.storage_key);
    await deps.storage.put(key, source.stream, original.content_type);
  }
  try {
    const row = await deps.db.transaction().execute(async (trx) => {
      await lockCreator(trx, userId);
      await roomOrRefuse(trx);
      return trx
        .insertInto('message_attachments')
        .values({
          id,
          owner_id: userId,
          kind: original.kind,
          status: 'ready',
          original_filename: `${stem}.${ext}`,
          byte_size: bytes,
          storage_key: key,
          content_type: original.content_type,
          width: original.width,
          height: original.height,
          duration_seconds: original.duration_seconds,
          vault_key: original.storage_key,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return attachmentRowToDto(row);
  } catch (error) {
    await deps.storage.delete(key).catch(() => {});
    throw error;
  }
}
