import type { Job } from 'bullmq';
import type { MediaJobs } from '../../common/jobs';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { announceFileState, announceProgress, type AnnouncedPost } from '../../domain/announcements/post-events';
import { applyPostEffects } from '../../domain/posts/effects';
import { markFileFailed, type findPostFiles } from '../../domain/posts/files.queries';
import { completePostFile, completeProcessing, type ProcessedFileRow } from '../../domain/posts/transitions';
import { MediaContentError } from '../media/errors';
import { processUpload } from '../media/pipeline';
import type { WatermarkSpec } from '../media/watermark';
import type { JobContext, WorkerDeps } from '../registry';
import { postFileKey, removeKeys, throttledProgress } from './media';
import { storeOutputFile, withUploadInWorkDir } from './media-job';
import type { MediaRun } from './media-run';

type PostFile = Awaited<ReturnType<typeof findPostFiles>>[number];

/**
 * A post of several files (post_files), processed one file after another by the run holding the
 * post: a file already ready (an earlier run, a retry) is skipped; each processed file becomes
 * the post's at once (completePostFile), so a run cut off keeps what it finished. A file whose
 * content is refused fails alone, with its reason, and the others go on; the post then fails
 * with '<file name>: <reason>' (the creator removes or retries it), else it completes with every
 * file ready. Other errors go to the job's retry like a single file's (endMediaJob, by the caller).
 */
export async function processFiles(
  job: Job<MediaJobs['process-post']>,
  deps: WorkerDeps,
  context: JobContext,
  { post, files, run, announced, fail }: {
    post: { id: string; is_premium: boolean; watermark: WatermarkSpec | null };
    files: PostFile[];
    run: MediaRun;
    announced: AnnouncedPost;
    fail: (reason: string) => Promise<void>;
  },
) {
  const { db, storage } = deps;
  const postId = post.id;
  let failure: string | null = files.find((f) => f.status === 'failed')?.failure_reason ?? null;
  const fileState = (position: number, status: 'processing' | 'ready' | 'failed', percent: number | null, reason: string | null = null) =>
    announceFileState(deps.realtime, announced, { position, status, percent, reason });
  const failFile = async (file: PostFile, reason: string) => {
    await markFileFailed(db, postId, file.position, reason);
    failure ??= `${file.original_filename}: ${reason}`;
    fileState(file.position, 'failed', null, reason);
  };
  // the post's bar and the file's own, on the one throttle
  let current = 0;
  let filePercent = 0;
  const progress = throttledProgress(job, (percent) => {
    announceProgress(deps.realtime, announced, percent);
    fileState(current, 'processing', filePercent);
  });
  for (const [index, file] of files.entries()) {
    // a file ready before (an earlier run) is said again: a form opened meanwhile learns it
    if (file.status === 'ready') fileState(file.position, 'ready', 100);
    if (file.status !== 'processing') continue;
    current = file.position;
    filePercent = 0;
    fileState(file.position, 'processing', 0);
    const rule = uploadRuleFor(file.original_filename);
    if (!rule || !file.source_key) {
      await failFile(file, UPLOAD_TEXTS.damaged('upload'));
      continue;
    }
    const written: string[] = [];
    try {
      await withUploadInWorkDir(storage, `${postId}-${file.position}`, file.source_key, rule.ext, async (input, workDir) => {
        const media = await processUpload({
          input,
          rule,
          workDir,
          watermark: post.watermark,
          premium: post.is_premium,
          onProgress: (percent) => {
            filePercent = Math.floor(percent);
            progress(Math.floor(((index + percent / 100) / files.length) * 100));
          },
          signal: context.signal,
          timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE,
        });
        const rows: ProcessedFileRow[] = [];
        for (const out of media.files) {
          const key = postFileKey(postId, run.id, `${file.position}-${out.variant}`, out.ext);
          await run.willWrite(key);
          const stored = await storeOutputFile(storage, key, out);
          written.push(key);
          rows.push({ variant: out.variant, ...stored });
        }
        const previous = await completePostFile(db, { postId, runId: run.id, position: file.position, files: rows });
        if (!previous) throw new PostGone();
        written.length = 0;
        fileState(file.position, 'ready', 100);
        await removeKeys(deps, previous.filter((key) => !rows.some((r) => r.storageKey === key)));
      });
    } catch (error) {
      await removeKeys(deps, written);
      if (error instanceof PostGone) return { skipped: 'gone' };
      if (error instanceof MediaContentError) {
        await failFile(file, error.message);
        continue;
      }
      throw error;
    }
  }
  if (failure) {
    await fail(failure);
    return { status: 'failed' };
  }
  const done = await completeProcessing(db, { postId, runId: run.id, mediaKind: files[0]!.media_kind, files: null });
  if (!done) return { skipped: 'gone' };
  void job.updateProgress(100).catch(() => {});
  await applyPostEffects(deps, done.effects);
  return { status: done.status, files: files.length };
}

/** The post was deleted, finished or taken over by another run while a file was processed. */
class PostGone extends Error {}
