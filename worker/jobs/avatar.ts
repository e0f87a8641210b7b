import { UnrecoverableError, type Job } from 'bullmq';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AvatarJobs } from '../../common/jobs';
import { SETTINGS_LIMITS, avatarIncomingKey, avatarKey, avatarKeyOfUrl, avatarUrl } from '../../common/settings';
import { StorageNotFoundError } from '../../core/storage/storage';
import { completeAvatar, failAvatar, findAvatarState } from '../../domain/avatars/avatar.queries';
import { processAvatarImage } from '../media/avatar-image';
import { MediaContentError } from '../media/errors';
import type { WorkerDeps } from '../registry';

/**
 * 'process-avatar' (queue `media`): the avatar upload `uploadId` becomes the profile's avatar,
 * re-encoded square without metadata. Idempotent: skipped when the upload is no longer the
 * pending one (a newer upload, already done, account gone); the output key is the upload's, so a
 * second run writes the same file (atomically: storage.put), and one that finds the avatar made
 * by another run leaves that file alone. A file that is not a readable image is refused for good and
 * its reason shown on the settings screen; anything else is retried.
 */
export async function processAvatar(job: Job<AvatarJobs['process-avatar']>, deps: WorkerDeps) {
  const { db, storage, log } = deps;
  const { userId, uploadId } = job.data;
  const incoming = avatarIncomingKey(userId, uploadId);
  const state = await findAvatarState(db, userId);
  if (!state || state.avatar_pending_id !== uploadId) {
    await storage.delete(incoming);
    return { skipped: 'superseded' };
  }

  const workDir = await mkdtemp(path.join(path.resolve(tmpdir()), 'avatar-'));
  try {
    const input = path.join(workDir, 'source');
    const source = await storage.get(incoming).catch((error: unknown) => {
      throw error instanceof StorageNotFoundError ? new MediaContentError('The upload is gone.') : error;
    });
    await pipeline(source.stream, createWriteStream(input));
    const output = path.join(workDir, 'avatar.webp');
    await processAvatarImage(input, output, SETTINGS_LIMITS.avatarSidePx);
    const key = avatarKey(userId, uploadId);
    await storage.put(key, createReadStream(output), 'image/webp');

    const done = await completeAvatar(db, userId, uploadId, avatarUrl(userId, uploadId));
    if (!done) {
      // superseded, or made the avatar by another run of this same upload (a duplicate job):
      // then the file under this key is the avatar, and stays
      const now = await findAvatarState(db, userId);
      if (now?.avatar_url !== avatarUrl(userId, uploadId)) await storage.delete(key);
    } else {
      // the avatar is part of the signed-in user the server copies hold in their session caches
      await deps.realtime.forgetSessions({ userIds: [userId] });
      const previous = avatarKeyOfUrl(done.previousUrl);
      if (previous && previous !== key) await storage.delete(previous);
    }
    await storage.delete(incoming);
    return done ? { status: 'done' } : { skipped: 'superseded' };
  } catch (error) {
    if (error instanceof MediaContentError) {
      await failAvatar(db, userId, uploadId, error.message);
      await storage.delete(incoming);
      throw new UnrecoverableError(error.message);
    }
    log.warn({ err: error, userId, uploadId }, 'avatar job failed (will retry)');
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await failAvatar(db, userId, uploadId, 'Processing failed. Please try again.');
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
