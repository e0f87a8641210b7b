import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaJobs } from '../../common/jobs';
import { watermarkLabel } from '../../common/media-settings';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { completeProcessing, findPostToProcess, reopenFailedPost, type ProcessedFileRow } from '../../domain/processing/processing.queries';
import { failPost } from '../../domain/processing/fail-post';
import { announceDraftReady, announcePostPublished, announceProgress, type AnnouncedPost } from '../../domain/announcements/post-events';
import { StorageNotFoundError } from '../../core/storage/storage';
import { trackTempDir } from '../media/child-processes';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import { processUpload } from '../media/pipeline';
import type { JobContext, QueueHandlers, WorkerDeps } from '../registry';
import { processAvatar } from './avatar';
import { processMessageAttachment } from './message-attachment';
import { mediaTempPrefix } from '../temp-dirs';

type ProcessPostJob = Job<MediaJobs['process-post']>;

/**
 * 'process-post' (queues `media` and `transcode`): an uploaded post becomes a published post or a
 * draft, or fails with a reason. Idempotent, as the job may run again (retry, stalled worker,
 * duplicate): the post is re-read and the job is skipped when it is gone or already done; a
 * failed post retried from the dashboard is processed again. Outputs are written under new keys
 * (`posts/<id>/<variant>.<ext>`) and only take effect in the final transaction, so a run cut off
 * anywhere leaves the post as it was.
 *
 * Outcomes: a content problem (MediaContentError) fails the post with its reason and the job
 * with UnrecoverableError (no retry); any other error is retried with backoff and fails the post
 * ('Processing failed. Please try again.') on the last attempt; a shutdown hands the job back to
 * the queue (WaitingError) for another worker.
 */
export async function processPost(job: ProcessPostJob, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { postId } = job.data;
  const post = await findPostToProcess(db, postId);
  if (!post) return { skipped: 'deleted' };
  if (post.status === 'draft' || post.status === 'published') return { skipped: 'done' };
  if (post.status === 'failed') await reopenFailedPost(db, postId);

  const announced: AnnouncedPost = { postId, creatorId: post.creator_id, optimisticId: post.optimistic_id };
  const fail = (reason: string) => failPost(deps, announced, reason);

  const rule = post.original_filename ? uploadRuleFor(post.original_filename) : null;
  if (!rule || !post.source_key) {
    await fail(UPLOAD_TEXTS.damaged('upload'));
    throw new UnrecoverableError(UPLOAD_TEXTS.damaged('upload'));
  }
  const watermark =
    post.watermark_enabled === false
      ? null
      : { label: watermarkLabel({ watermarkText: post.watermark_text }, post.username), position: post.watermark_position ?? 'center' };

  // absolute: ffmpeg is given the upload as an absolute path (worker/media/ffmpeg-input.ts)
  // named after this process, so a later start can tell a dead worker's leftovers (temp-dirs.ts)
  const workDir = await mkdtemp(path.join(path.resolve(tmpdir()), mediaTempPrefix(postId)));
  const untrack = trackTempDir(workDir);
  const written: string[] = [];
  try {
    const input = path.join(workDir, `source.${rule.ext}`);
    const source = await storage.get(post.source_key).catch((error: unknown) => {
      throw error instanceof StorageNotFoundError ? new MediaContentError(UPLOAD_TEXTS.damaged('upload')) : error;
    });
    await pipeline(source.stream, createWriteStream(input));

    const progress = throttledProgress(job, (percent) => announceProgress(deps.realtime, announced, percent));
    const media = await processUpload({
      input,
      rule,
      workDir,
      watermark,
      premium: post.is_premium,
      onProgress: progress,
      signal: context.signal,
      timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE,
    });

    const rows: ProcessedFileRow[] = [];
    for (const file of media.files) {
      const key = `posts/${postId}/${file.variant}.${file.ext}`;
      const { size } = await storage.put(key, createReadStream(file.path), file.contentType);
      written.push(key);
      rows.push({
        variant: file.variant,
        storageKey: key,
        contentType: file.contentType,
        byteSize: size,
        width: file.width ?? null,
        height: file.height ?? null,
        durationSeconds: file.durationSeconds ?? null,
      });
    }

    const done = await completeProcessing(db, postId, media.mediaKind, rows);
    if (!done) {
      // deleted (or finished by another run) meanwhile: what this run wrote belongs to nobody
      await removeKeys(deps, written);
      return { skipped: 'gone' };
    }
    // the uploaded bytes are not served; they go once the processed files are in place
    await removeKeys(deps, done.previousKeys.filter((key) => !written.includes(key)));
    // not awaited: with Redis away it would wait for its return, and the post is done already
    void job.updateProgress(100).catch(() => {});
    if (done.status === 'published') announcePostPublished(deps.realtime, announced, done.creatorVisibility);
    else announceDraftReady(deps.realtime, announced);
    return { status: done.status, files: rows.map((r) => r.variant) };
  } catch (error) {
    await removeKeys(deps, written);
    if (error instanceof MediaAbortedError || context.signal?.aborted) {
      // shutting down: hand the job back untouched, another worker (or this one after a restart) takes it
      log.info({ postId, jobId: job.id }, 'media job released on shutdown');
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

async function removeKeys(deps: WorkerDeps, keys: string[]) {
  for (const key of keys) {
    await deps.storage.delete(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'could not delete a stored file'));
  }
}

/** Job progress (Bull Board shows it) and the creator's progress event, at most every 5% or 2 s. */
function throttledProgress(job: ProcessPostJob, emit: (percent: number) => void) {
  let last = -100;
  let lastAt = 0;
  return (percent: number) => {
    const now = Date.now();
    if (percent - last < 5 && now - lastAt < 2000) return;
    last = percent;
    lastAt = now;
    void job.updateProgress(percent).catch(() => {});
    emit(percent);
  };
}

export const mediaHandlers: QueueHandlers<'media'> = {
  'process-post': processPost,
  'process-avatar': processAvatar,
  'process-message-attachment': processMessageAttachment,
};
export const transcodeHandlers: QueueHandlers<'transcode'> = { 'process-post': processPost, 'process-message-attachment': processMessageAttachment };
