import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { mediaQueueFor, messageAttachmentJobId } from '../../../common/jobs';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_EXTENSIONS, MESSAGE_ATTACHMENT_MAX_BYTES, MESSAGE_UPLOAD_LIMIT } from '../../../common/messages';
import { MESSAGE_TEXTS, SERVER_TEXTS, UPLOAD_TEXTS } from '../../../common/texts';
import { textProblem } from '../../../common/text-schema';
import { fileExtension, uploadRuleFor } from '../../../common/uploads';
import type { AppDeps } from '../../../core/deps';
import { attachmentRowToDto, attachmentSourceKey } from '../../../domain/messaging/attachments';
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
 * A chat attachment's upload (spec part 2 §5): a file of an allowed kind (images, video, audio,
 * pdf, doc, docx) of at most 10 MB, counted as it streams in (a lying Content-Length changes
 * nothing), stored privately as the upload and queued for the worker, which checks its bytes and
 * makes it safe. The client may send the message at once; it shows 'processing' until then.
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

  const row = await deps.db
    .insertInto('message_attachments')
    .values({ id, owner_id: userId, kind: rule.mediaKind, original_filename: name, byte_size: received, source_key: sourceKey })
    .returningAll()
    .executeTakeFirstOrThrow();
  try {
    await deps.queues.add(mediaQueueFor(rule.mediaKind), 'process-message-attachment', { attachmentId: id }, { jobId: messageAttachmentJobId(id) });
  } catch (error) {
    // no job, no file: say so now rather than leave it 'processing' for ever
    deps.log.warn({ err: error, attachmentId: id }, 'could not queue a message attachment');
    await deps.db.updateTable('message_attachments').set({ status: 'failed', failure_reason: SERVER_TEXTS.unavailable }).where('id', '=', id).execute();
    await deps.storage.delete(sourceKey).catch(() => {});
    throw new AttachmentRefusal(503, 'UNAVAILABLE', SERVER_TEXTS.unavailable);
  }
  // as inserted ('processing'): no message carries it yet
  return attachmentRowToDto({ ...row, message_id: null, recipient_id: null });
}
