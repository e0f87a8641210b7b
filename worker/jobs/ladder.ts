import { WaitingError, type Job } from 'bullmq';
import { createReadStream } from 'node:fs';
import type { LadderJobs } from '../../common/jobs';
import { ladderKey, type LadderRendition } from '../../common/ladder';
import { isMarkedPost } from '../../domain/forensics/marked';
import { insertLadder, videosWithoutLadder, type StoredLadder } from '../../domain/streaming/ladders.queries';
import { MediaAbortedError, MediaContentError } from '../media/errors';
import { makeLadder, type MadeLadder } from '../media/hls-ladder';
import type { JobContext, WorkerDeps } from '../registry';
import { removeKeys } from './media';
import { withUploadInWorkDir } from './media-job';

/**
 * 'build-ladder' (queue `transcode`, from the outbox): the HLS ladder of every video file of a
 * post that has none yet (docs/media.md), from the MP4 its processing stored. Idempotent and
 * resumable: a file whose ladder is recorded is skipped; the objects of a file's ladder have
 * fixed keys (`posts/<postId>/hls/<position>/<file>`, ladderKey), so a run killed mid-way leaves
 * nothing a retry does not overwrite, and the row is written once, after every object
 * (insertLadder: a second run's insert finds it there and changes nothing). A file whose MP4
 * ffmpeg refuses keeps playing as the MP4 (logged); a shutdown hands the job back. A premium or
 * pay-per-view post's ladder also holds variant B of every segment (the forensic mark, docs/media.md):
 * whether it is paid is read when the ladder is made.
 */
export async function buildLadder(job: Job<LadderJobs['build-ladder']>, deps: WorkerDeps, context: JobContext = {}) {
  const { db, storage, log } = deps;
  const { postId } = job.data;
  const videos = await videosWithoutLadder(db, postId);
  let made = 0;
  for (const video of videos) {
    const written: string[] = [];
    try {
      const outcome = await withUploadInWorkDir(storage, `${postId}-hls${video.position}`, video.storage_key, 'mp4', async (input, workDir) => {
        const forensicMark = isMarkedPost({ isPremium: video.is_premium, unlockPriceCents: video.unlock_price_cents });
        const ladder = await makeLadder({ input, workDir, signal: context.signal, timeLimitScale: deps.config.MEDIA_TIME_LIMIT_SCALE, forensicMark });
        for (const file of ladder.files) {
          const key = ladderKey(postId, video.position, file.file);
          await storage.put(key, createReadStream(file.path), file.contentType);
          written.push(key);
        }
        return insertLadder(db, { postId, position: video.position, ladder: storedLadder(ladder, (file) => ladderKey(postId, video.position, file)), keys: written });
      });
      // a post deleted meanwhile: its deletion listed no ladder, so these objects are this run's to remove
      if (outcome === 'post-gone') {
        await removeKeys(deps, written);
        return { skipped: 'deleted' };
      }
      if (outcome === 'inserted') made++;
    } catch (error) {
      if (error instanceof MediaAbortedError || context.signal?.aborted) {
        log.info({ postId, jobId: job.id }, 'ladder job released on shutdown');
        await job.moveToWait(context.token);
        throw new WaitingError();
      }
      if (error instanceof MediaContentError) {
        log.warn({ postId, position: video.position, reason: error.message }, 'ladder not made: the MP4 plays instead');
        continue;
      }
      throw error;
    }
  }
  return { ladders: made };
}

/** The ladder as its row records it: each file with the storage key `key` gives it (a post's video, a chat video). */
export function storedLadder(ladder: MadeLadder, key: (file: string) => string): StoredLadder {
  const renditions: LadderRendition[] = ladder.renditions.map((r) => ({
    name: r.name,
    width: r.width,
    height: r.height,
    bandwidth: r.bandwidth,
    codecs: r.codecs,
    targetDuration: r.targetDuration,
    init: { file: r.init, key: key(r.init) },
    segments: r.segments.map((s) => ({ file: s.file, key: key(s.file), duration: s.duration })),
    ...(r.variantB
      ? { variantB: { init: { file: r.variantB.init, key: key(r.variantB.init) }, segments: r.variantB.segments.map((s) => ({ file: s.file, key: key(s.file), duration: s.duration })) } }
      : {}),
  }));
  const t = ladder.thumbnails;
  return {
    renditions,
    thumbnails: t ? { sprite: { file: t.sprite, key: key(t.sprite) }, tileWidth: t.tileWidth, tileHeight: t.tileHeight, columns: t.columns, interval: t.interval, count: t.count } : null,
  };
}
