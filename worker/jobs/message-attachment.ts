import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { mediaQueueFor, messageAttachmentJobId, type MessageMediaJobs } from '../../common/jobs';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { StorageNotFoundError } from '../../core/storage/storage';
import {
  announceAttachment,
  attachmentFileKey,
  completeAttachment,
  failAttachment,
  findAttachment,
  findIdleProcessingAttachments,
  touchAttachment,
} from '../../domain/messaging/attachments';
import { trackTempDir } from '../media/child-processes';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import { processUpload } from '../media/pipeline';
import type { JobContext, WorkerDeps } from '../registry';
import { mediaTempPrefix } from '../temp-dirs';

/**
 * 'process-message-attachment' (queue `media` or `transcode`): a chat file goes through the SAME
 * pipeline as a post's media (worker/media/pipeline.ts): the bytes are sniffed and must match the
 * extension, ffmpeg gets the demuxer forced from the sniffed type, images are re-encoded (EXIF and
 * GPS gone), video becomes web-playable MP4; no watermark, no premium preview. The served file is
 * stored under `messages/<id>/file.<ext>`, which only the authorised media route reads.
 *
 * Idempotent: the row is re-read and the job skipped unless it is still 'processing'; the output
 * key is fixed, so a second run overwrites the same file. A content problem fails the attachment
 * with its reason (no retry); anything else is retried and fails it on the last attempt.
 */
export async function processMessageAttachment(job: Job<MessageMediaJobs['process-message-attachment']>, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { attachmentId } = job.data;
  const row = await findAttachment(db, attachmentId);
  if (!row) return { skipped: 'deleted' };
  if (row.status !== 'processing') return { skipped: 'done' };

  const fail = async (reason: string) => {
    if (await failAttachment(db, attachmentId, reason)) {
      if (row.source_key) await storage.delete(row.source_key).catch(() => {});
      await announceAttachment(db, deps.realtime, attachmentId);
    }
  };
  const rule = uploadRuleFor(row.original_filename);
  if (!rule || !row.source_key) {
    await fail(UPLOAD_TEXTS.damaged('upload'));
    throw new UnrecoverableError(UPLOAD_TEXTS.damaged('upload'));
  }

  const workDir = await mkdtemp(path.join(path.resolve(tmpdir()), mediaTempPrefix(attachmentId)));
  const untrack = trackTempDir(workDir);
  try {
    const input = path.join(workDir, `source.${rule.ext}`);
    const source = await storage.get(row.source_key).catch((error: unknown) => {
      throw error instanceof StorageNotFoundError ? new MediaContentError(UPLOAD_TEXTS.damaged('upload')) : error;
    });
    await pipeline(source.stream, createWriteStream(input));
    const media = await processUpload({
      input,
      rule,
      workDir,
      watermark: null,
      premium: false,
      signal: context.signal,
      timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE,
    });
    // images: the re-encoded display size; everything else: its one processed file
    const file = media.files.find((f) => f.variant === 'web') ?? media.files.find((f) => f.variant === 'original');
    if (!file) throw new Error('the pipeline made no file to serve');
    const key = attachmentFileKey(attachmentId, file.ext);
    const { size } = await storage.put(key, createReadStream(file.path), file.contentType);
    const done = await completeAttachment(db, attachmentId, {
      storageKey: key,
      contentType: file.contentType,
      byteSize: size,
      width: file.width ?? null,
      height: file.height ?? null,
      durationSeconds: file.durationSeconds ?? null,
    });
    if (!done) {
      await storage.delete(key).catch(() => {});
      return { skipped: 'gone' };
    }
    await storage.delete(row.source_key).catch((error: unknown) => log.warn({ err: error, attachmentId }, 'could not delete an attachment upload'));
    await announceAttachment(db, deps.realtime, attachmentId);
    return { status: 'ready' };
  } catch (error) {
    if (error instanceof MediaAbortedError || context.signal?.aborted) {
      log.info({ attachmentId, jobId: job.id }, 'message attachment job released on shutdown');
      await job.moveToWait(context.token);
      throw new WaitingError();
    }
    if (error instanceof MediaContentError) {
      await fail(error.message);
      throw new UnrecoverableError(error.message);
    }
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await fail(UPLOAD_TEXTS.processingFailed);
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
    untrack();
  }
}

/**
 * The lost-job sweep for chat attachments (beside the posts' one, lost-jobs.ts): one 'processing'
 * for LOST_JOB_AFTER_MS whose job Redis no longer has (or completed without it) is queued again;
 * one whose job failed for good is failed. Idempotent by the job id.
 */
export async function requeueLostAttachmentJobs(deps: Pick<WorkerDeps, 'db' | 'queues' | 'realtime'>, idleMs: number) {
  const idle = await findIdleProcessingAttachments(deps.db, idleMs, 200);
  let requeued = 0;
  for (const row of idle) {
    const queue = mediaQueueFor(row.kind);
    const state = await deps.queues[queue].getJobState(messageAttachmentJobId(row.id));
    if (state === 'unknown' || state === 'completed') {
      await deps.queues[queue].remove(messageAttachmentJobId(row.id)).catch(() => 0);
      await deps.queues.add(queue, 'process-message-attachment', { attachmentId: row.id }, { jobId: messageAttachmentJobId(row.id) });
      await touchAttachment(deps.db, row.id);
      requeued++;
    } else if (state === 'failed') {
      if (await failAttachment(deps.db, row.id, UPLOAD_TEXTS.processingFailed)) await announceAttachment(deps.db, deps.realtime, row.id);
    }
  }
  return { checked: idle.length, requeued };
}
