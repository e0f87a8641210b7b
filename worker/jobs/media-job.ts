import { UnrecoverableError, WaitingError, type Job } from 'bullmq';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UPLOAD_TEXTS } from '../../common/texts';
import { StorageNotFoundError } from '../../core/storage/storage';
import { applyPostEffects } from '../../domain/posts/effects';
import { failPost } from '../../domain/posts/transitions';
import { trackTempDir } from '../media/child-processes';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import type { OutputFile } from '../media/types';
import type { JobContext, WorkerDeps } from '../registry';
import { mediaTempPrefix } from '../temp-dirs';

/**
 * What a job that runs an upload through the media pipeline (a post's media, a chat attachment)
 * does around it: a work dir named after this process (a later start can tell a dead worker's
 * leftovers, temp-dirs.ts), absolute as ffmpeg is given absolute paths (ffmpeg-input.ts), with
 * the upload copied in as `source.<ext>`; removed afterwards, whatever happened.
 */
export async function withUploadInWorkDir<T>(
  storage: WorkerDeps['storage'],
  id: string,
  sourceKey: string,
  ext: string,
  run: (input: string, workDir: string) => Promise<T>,
): Promise<T> {
  const workDir = await mkdtemp(path.join(path.resolve(tmpdir()), mediaTempPrefix(id)));
  const untrack = trackTempDir(workDir);
  try {
    const input = path.join(workDir, `source.${ext}`);
    const source = await storage.get(sourceKey).catch((error: unknown) => {
      throw error instanceof StorageNotFoundError ? new MediaContentError(UPLOAD_TEXTS.damaged('upload')) : error;
    });
    await pipeline(source.stream, createWriteStream(input));
    return await run(input, workDir);
  } finally {
    await rm(workDir, { recursive: true, force: true });
    untrack();
  }
}

/**
 * How a media job ends on an error (always throws): a shutdown hands the job back to the queue
 * (WaitingError) for another worker; a content problem (MediaContentError) fails the item with
 * its reason and the job for good (no retry); anything else is retried with backoff and fails the
 * item ('Processing failed. Please try again.') on the last attempt.
 */
export async function endMediaJob(
  error: unknown,
  job: Job,
  context: JobContext,
  { log, logFields, fail }: { log: WorkerDeps['log']; logFields: Record<string, unknown>; fail: (reason: string) => Promise<unknown> },
): Promise<never> {
  if (error instanceof MediaAbortedError || context.signal?.aborted) {
    log.info({ ...logFields, jobId: job.id }, 'media job released on shutdown');
    await job.moveToWait(context.token);
    throw new WaitingError();
  }
  if (error instanceof MediaContentError) {
    await fail(error.message);
    throw new UnrecoverableError(error.message);
  }
  if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await fail(UPLOAD_TEXTS.processingFailed);
  throw error;
}

/** Stores one file the pipeline made under `key`; returns what its row records. */
export async function storeOutputFile(storage: WorkerDeps['storage'], key: string, file: OutputFile) {
  const { size } = await storage.put(key, createReadStream(file.path), file.contentType);
  return {
    storageKey: key,
    contentType: file.contentType,
    byteSize: size,
    width: file.width ?? null,
    height: file.height ?? null,
    durationSeconds: file.durationSeconds ?? null,
  };
}

/**
 * A post being processed fails for good: 'failed' with the reason its creator reads, and the
 * creator hears it (post:failed). Only a post still 'processing' changes, so a run that finds it
 * failed, finished or deleted already says nothing.
 */
export async function failProcessingPost(deps: Pick<WorkerDeps, 'db' | 'queues' | 'realtime' | 'log' | 'config'>, postId: string, reason: string): Promise<void> {
  const effects = await failPost(deps.db, postId, reason);
  if (effects) await applyPostEffects(deps, effects);
}
