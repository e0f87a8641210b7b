import { WaitingError, type Job } from 'bullmq';
import { createReadStream } from 'node:fs';
import type { AttachmentLadderJobs } from '../../common/jobs';
import { attachmentVideoWithoutLadder, recordAttachmentLadder } from '../../domain/messaging/attachment-ladders';
import { attachmentLadderKey } from '../../domain/messaging/attachments';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import { makeLadder } from '../media/hls-ladder';
import type { JobContext, WorkerDeps } from '../registry';
import { storedLadder } from './ladder';
import { removeKeys } from './media';
import { withUploadInWorkDir } from './media-job';

/**
 * 'build-attachment-ladder' (queue `attachment-transcode`, from the outbox when a chat video
 * becomes ready): its HLS ladder (docs/media.md), made by the same code as a post's from the MP4
 * the attachment's processing stored (no watermark: chat files carry none). Idempotent as the
 * posts' job is: skipped when recorded already; the objects have fixed keys
 * (`messages/<id>/hls/<file>`), so a retry overwrites what a dead run left, and the row is
 * written once, after every object. A video ffmpeg refuses keeps playing as its MP4 (logged).
 */
export async function buildAttachmentLadder(job: Job<AttachmentLadderJobs['build-attachment-ladder']>, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { attachmentId } = job.data;
  const video = await attachmentVideoWithoutLadder(db, attachmentId);
  if (!video) return { skipped: 'done' };
  const written: string[] = [];
  try {
    const outcome = await withUploadInWorkDir(storage, `${attachmentId}-hls`, video.storageKey, 'mp4', async (input, workDir) => {
      const ladder = await makeLadder({ input, workDir, signal: context.signal, timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE });
      for (const file of ladder.files) {
        const key = attachmentLadderKey(attachmentId, file.file);
        await storage.put(key, createReadStream(file.path), file.contentType);
        written.push(key);
      }
      return recordAttachmentLadder(db, attachmentId, storedLadder(ladder, (file) => attachmentLadderKey(attachmentId, file)), written);
    });
    // deleted meanwhile: its deletion listed none of these objects
    if (outcome === 'gone') {
      await removeKeys(deps, written);
      return { skipped: 'deleted' };
    }
    return { ladder: outcome };
  } catch (error) {
    if (error instanceof MediaAbortedError || context.signal?.aborted) {
      log.info({ attachmentId, jobId: job.id }, 'attachment ladder job released on shutdown');
      await job.moveToWait(context.token);
      throw new WaitingError();
    }
    if (error instanceof MediaContentError) {
      log.warn({ attachmentId, reason: error.message }, 'chat video ladder not made: the MP4 plays instead');
      return { skipped: 'content' };
    }
    throw error;
  }
}
