import { UnrecoverableError, type Job } from 'bullmq';
import type { MediaJobs } from '../../common/jobs';
import { watermarkLabel } from '../../common/media-settings';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { findPostToProcess } from '../../domain/processing/processing.queries';
import { announceProgress, type AnnouncedPost } from '../../domain/announcements/post-events';
import { applyPostEffects } from '../../domain/posts/effects';
import { completeProcessing, retryPost, type ProcessedFileRow } from '../../domain/posts/transitions';
import { processUpload } from '../media/pipeline';
import type { JobContext, QueueHandlers, WorkerDeps } from '../registry';
import { processAvatar } from './avatar';
import { findPostFiles } from '../../domain/posts/files.queries';
import { processFiles } from './media-files';
import { endMediaJob, failProcessingPost, storeOutputFile, withUploadInWorkDir } from './media-job';
import { holdRun, type MediaRun } from './media-run';

type ProcessPostJob = Job<MediaJobs['process-post']>;

/**
 * 'process-post' (queues `media` and `transcode`): an uploaded post becomes a published post or a
 * draft, or fails with a reason. Idempotent, as the job may run again (retry, stalled worker,
 * duplicate): the post is re-read and the job is skipped when it is gone or already done; a
 * failed post retried from the dashboard is processed again. One run at a time holds the post
 * (media-run.ts: a duplicate waits while the first run's heartbeat is fresh), and each run writes
 * its outputs under keys of its own (`posts/<id>/<runId>/<variant>.<ext>`, postFileKey) that only
 * take effect in the final transaction: a run cut off anywhere leaves the post as it was, and a
 * run that loses to another deletes only its own files.
 *
 * Outcomes (media-job.ts, endMediaJob): a content problem fails the post with its reason (no
 * retry); any other error is retried and fails the post on the last attempt; a shutdown hands
 * the job back to the queue for another worker.
 */
export async function processPost(job: ProcessPostJob, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { postId } = job.data;
  const first = await findPostToProcess(db, postId);
  if (!first) return { skipped: 'deleted' };
  if (first.status === 'draft' || first.status === 'published') return { skipped: 'done' };
  // retried from Bull Board: this run is the processing its retry would queue, so its effects are not applied
  if (first.status === 'failed') await retryPost(db, postId);

  const announced: AnnouncedPost = { postId, creatorId: first.creator_id, optimisticId: first.optimistic_id };
  const fail = (reason: string) => failProcessingPost(deps, postId, reason);

  const written: string[] = [];
  let run: MediaRun | null = null;
  try {
    run = await holdRun(deps, 'posts', postId, context.signal);
    if (!run) return { skipped: 'done' };
    const post = run.waited ? await findPostToProcess(db, postId) : first;
    if (!post) return { skipped: 'deleted' };
    const files = await findPostFiles(db, postId);
    if (files.length > 0) {
      const watermarkOf = post.watermark_enabled === false
        ? null
        : { label: watermarkLabel({ watermarkText: post.watermark_text }, post.username), position: post.watermark_position ?? 'center' };
      return await processFiles(job, deps, context, { post: { ...post, watermark: watermarkOf }, files, run, announced, fail });
    }
    const rule = post.original_filename ? uploadRuleFor(post.original_filename) : null;
    if (!rule || !post.source_key) {
      await fail(UPLOAD_TEXTS.damaged('upload'));
      throw new UnrecoverableError(UPLOAD_TEXTS.damaged('upload'));
    }
    const watermark =
      post.watermark_enabled === false
        ? null
        : { label: watermarkLabel({ watermarkText: post.watermark_text }, post.username), position: post.watermark_position ?? 'center' };
    const heldRun = run;
    const runId = run.id;
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
        const key = postFileKey(postId, runId, file.variant, file.ext);
        await heldRun.willWrite(key);
        const stored = await storeOutputFile(storage, key, file);
        written.push(key);
        rows.push({ variant: file.variant, ...stored });
      }

      const done = await completeProcessing(db, { postId, runId, mediaKind: media.mediaKind, files: rows });
      if (!done) {
        // deleted, finished or taken over by another run meanwhile: what THIS run wrote belongs to nobody
        await removeKeys(deps, written);
        return { skipped: 'gone' };
      }
      // the uploaded bytes are not served; they go once the processed files are in place
      await removeKeys(deps, done.previousKeys.filter((key) => !written.includes(key)));
      // not awaited: with Redis away it would wait for its return, and the post is done already
      void job.updateProgress(100).catch(() => {});
      await applyPostEffects(deps, done.effects);
      return { status: done.status, files: rows.map((r) => r.variant) };
    });
  } catch (error) {
    if (error instanceof UnrecoverableError) throw error;
    await removeKeys(deps, written);
    return await endMediaJob(error, job, context, { log, logFields: { postId }, fail });
  } finally {
    await run?.release();
  }
}

/**
 * Where a run stores a processed file: under the run's own id, so that a second run of the same
 * post (a duplicate job) never writes over, or deletes, the files of the first. The files become
 * the post's in the transaction that publishes it (completeProcessing), and only then.
 */
export const postFileKey = (postId: string, runId: string, variant: string, ext: string) => `posts/${postId}/${runId}/${variant}.${ext}`;

export async function removeKeys(deps: WorkerDeps, keys: string[]) {
  for (const key of keys) {
    await deps.storage.delete(key).catch((error: unknown) => deps.log.warn({ err: error, key }, 'could not delete a stored file'));
  }
}

/** Job progress (Bull Board shows it) and the creator's progress event, at most every 5% or 2 s. */
export function throttledProgress(job: ProcessPostJob, emit: (percent: number) => void) {
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
};
/** the ladder's job ('build-ladder', ./ladder.ts) joins these in workers.ts */
export const transcodeHandlers: Pick<QueueHandlers<'transcode'>, 'process-post'> = { 'process-post': processPost };
