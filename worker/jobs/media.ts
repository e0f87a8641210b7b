import { UnrecoverableError, type Job } from 'bullmq';
import type { MediaJobs } from '../../common/jobs';
import { watermarkLabel } from '../../common/media-settings';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { completeProcessing, findPostToProcess, reopenFailedPost, type ProcessedFileRow } from '../../domain/processing/processing.queries';
import { failPost } from '../../domain/processing/fail-post';
import { announceDraftReady, announcePostPublished, announceProgress, type AnnouncedPost } from '../../domain/announcements/post-events';
import { processUpload } from '../media/pipeline';
import type { JobContext, QueueHandlers, WorkerDeps } from '../registry';
import { processAvatar } from './avatar';
import { processMessageAttachment } from './message-attachment';
import { endMediaJob, storeOutputFile, withUploadInWorkDir } from './media-job';

type ProcessPostJob = Job<MediaJobs['process-post']>;

/**
 * 'process-post' (queues `media` and `transcode`): an uploaded post becomes a published post or a
 * draft, or fails with a reason. Idempotent, as the job may run again (retry, stalled worker,
 * duplicate): the post is re-read and the job is skipped when it is gone or already done; a
 * failed post retried from the dashboard is processed again. Outputs are written under new keys
 * (`posts/<id>/<variant>.<ext>`) and only take effect in the final transaction, so a run cut off
 * anywhere leaves the post as it was.
 *
 * Outcomes (media-job.ts, endMediaJob): a content problem fails the post with its reason (no
 * retry); any other error is retried and fails the post on the last attempt; a shutdown hands
 * the job back to the queue for another worker.
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

  const written: string[] = [];
  try {
    return await withUploadInWorkDir(storage, postId, post.source_key, rule.ext, async (input, workDir) => {
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
        const stored = await storeOutputFile(storage, key, file);
        written.push(key);
        rows.push({ variant: file.variant, ...stored });
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
    });
  } catch (error) {
    await removeKeys(deps, written);
    return await endMediaJob(error, job, context, { log, logFields: { postId }, fail });
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
