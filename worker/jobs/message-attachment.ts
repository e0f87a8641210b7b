import { UnrecoverableError, type Job } from 'bullmq';
import { attachmentQueueFor, messageAttachmentJobId, type MessageMediaJobs } from '../../common/jobs';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import {
  announceAttachment,
  attachmentFileKey,
  attachmentPreviewKey,
  completeAttachment,
  failAttachment,
  findAttachment,
  findIdleProcessingAttachments,
  touchAttachment,
} from '../../domain/messaging/attachments';
import { CHAT_MEDIA_LIMITS } from '../../common/limits';
import { dispatchOutbox } from '../../core/outbox/outbox';
import { queueAttachmentLadder } from '../../domain/messaging/attachment-ladders';
import { processUpload } from '../media/pipeline';
import type { JobContext, QueueHandlers, WorkerDeps } from '../registry';
import { endMediaJob, storeOutputFile, withUploadInWorkDir } from './media-job';
import { holdRun, runLeaseMs, type MediaRun } from './media-run';

/**
 * 'process-message-attachment' (queue `attachments` or `attachment-transcode`, never the posts'
 * queues, so a fan's files cannot hold up a creator's post): a chat file goes through the SAME
 * pipeline as a post's media (worker/media/pipeline.ts): the bytes are sniffed and must match the
 * extension, ffmpeg gets the demuxer forced from the sniffed type, images are re-encoded (EXIF and
 * GPS gone), video becomes web-playable MP4; no watermark. The served file is stored under
 * `messages/<id>/<runId>/file.<ext>` and its blurred preview (a premium post's, shown while a
 * pay-per-view file is not bought) beside it as `preview.jpg`; only the authorised media route reads them.
 *
 * Idempotent: the row is re-read and the job skipped unless it is still 'processing'; one run at
 * a time holds it (media-run.ts) and each run stores its file under its own run id
 * (`messages/<id>/<runId>/file.<ext>`), so a run that loses deletes only its own file. Chat bounds
 * apply (CHAT_MEDIA_LIMITS: shorter and smaller than a post's). Errors end it as a post's job does
 * (media-job.ts): a content problem fails the attachment with its reason (no retry); anything
 * else is retried and fails it on the last attempt.
 */
export async function processMessageAttachment(job: Job<MessageMediaJobs['process-message-attachment']>, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { attachmentId } = job.data;
  const row = await findAttachment(db, attachmentId);
  if (!row) return { skipped: 'deleted' };
  if (row.status !== 'processing') return { skipped: 'done' };

  const sourceKey = row.source_key;
  const fail = async (reason: string) => {
    if (await failAttachment(db, attachmentId, reason)) {
      if (sourceKey) await storage.delete(sourceKey).catch(() => {});
      await announceAttachment(db, deps.realtime, attachmentId);
    }
  };
  const rule = uploadRuleFor(row.original_filename);
  if (!rule || !sourceKey) {
    await fail(UPLOAD_TEXTS.damaged('upload'));
    throw new UnrecoverableError(UPLOAD_TEXTS.damaged('upload'));
  }

  let run: MediaRun | null = null;
  try {
    run = await holdRun(deps, 'message_attachments', attachmentId, context.signal);
    if (!run) return { skipped: 'done' };
    const heldRun = run;
    const runId = run.id;
    return await withUploadInWorkDir(storage, attachmentId, sourceKey, rule.ext, async (input, workDir) => {
      const media = await processUpload({
        input,
        rule,
        workDir,
        watermark: null,
        // every file gets the blurred preview: a price is set when it is sent, after this
        premium: true,
        signal: context.signal,
        timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE,
        limits: CHAT_MEDIA_LIMITS,
      });
      // images: the re-encoded display size; everything else: its one processed file
      const file = media.files.find((f) => f.variant === 'web') ?? media.files.find((f) => f.variant === 'original');
      if (!file) throw new Error('the pipeline made no file to serve');
      const preview = media.files.find((f) => f.variant === 'preview');
      if (!preview) throw new Error('the pipeline made no preview');
      const key = attachmentFileKey(attachmentId, runId, file.ext);
      const previewKey = attachmentPreviewKey(key);
      await heldRun.willWrite(key);
      await heldRun.willWrite(previewKey);
      await storeOutputFile(storage, previewKey, preview);
      const stored = await storeOutputFile(storage, key, file);
      // a video's HLS ladder is queued with its becoming ready, in the same transaction (the outbox)
      const { done, jobs } = await db.transaction().execute(async (trx) => {
        const completed = await completeAttachment(trx, attachmentId, runId, stored);
        return { done: completed, jobs: completed && row.kind === 'video' ? [await queueAttachmentLadder(trx, attachmentId)] : [] };
      });
      if (!done) {
        // deleted, or finished by another run: only this run's files go
        await Promise.all([storage.delete(key).catch(() => {}), storage.delete(previewKey).catch(() => {})]);
        return { skipped: 'gone' };
      }
      await storage.delete(sourceKey).catch((error: unknown) => log.warn({ err: error, attachmentId }, 'could not delete an attachment upload'));
      await announceAttachment(db, deps.realtime, attachmentId);
      await dispatchOutbox(deps, jobs);
      return { status: 'ready' };
    });
  } catch (error) {
    return await endMediaJob(error, job, context, { log, logFields: { attachmentId }, fail });
  } finally {
    await run?.release();
  }
}

/**
 * The lost-job sweep for chat attachments (beside the posts' one, lost-jobs.ts): one 'processing'
 * for LOST_JOB_AFTER_MS, held by no live run, whose job Redis no longer has (or completed without it) is queued again;
 * one whose job failed for good is failed. Idempotent by the job id.
 */
export async function requeueLostAttachmentJobs(deps: Pick<WorkerDeps, 'db' | 'queues' | 'realtime' | 'config'>, idleMs: number) {
  const idle = await findIdleProcessingAttachments(deps.db, idleMs, runLeaseMs(deps.config), 200);
  let requeued = 0;
  for (const row of idle) {
    const queue = attachmentQueueFor(row.kind);
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

export const attachmentHandlers: QueueHandlers<'attachments'> = {
  'process-message-attachment': processMessageAttachment,
};
