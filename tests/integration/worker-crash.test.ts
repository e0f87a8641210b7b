import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { makeUser } from '../helpers/factories';
import { makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';
import { killGroup, startProcess } from '../helpers/processes';

// The media worker as its own process (`npm run worker`), killed or stopped in the middle of a
// video: no upload is lost. The in-process server runs no media workers here.
let app: TestServer;
let asCreator: TestClient;
let video: Buffer;
let work: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail', 'maintenance'] });
  const creator = await makeUser(app.deps.db, { isCreator: true });
  asCreator = await clientAs(app, creator.id);
  work = await mkdtemp(path.join(tmpdir(), 'worker-crash-'));
  // long enough that the job is surely still running when it is interrupted
  video = await readFile(await makeVideo(work, { seconds: 12, width: 1280, height: 720 }));
}, 120_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) killGroup(child.pid, 'SIGKILL');
});
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The worker as its own process, in its own process group so the test can stop it together with its ffmpeg. */
function startWorker(extra: Record<string, string> = {}) {
  const config = app.deps.config;
  const worker = startProcess('worker/main.ts', {
    DATABASE_URL: config.DATABASE_URL,
    REDIS_PREFIX: config.REDIS_PREFIX,
    STORAGE_DIR: config.STORAGE_DIR,
    UPLOADS_DIR: config.UPLOADS_DIR,
    // a dead worker's job is noticed within seconds instead of a minute (not so short that a
    // live worker starved of CPU by parallel tests loses its lock)
    MEDIA_LOCK_DURATION_MS: '5000',
    MEDIA_STALLED_INTERVAL_MS: '1000',
    ...extra,
  });
  children.push(worker.child);
  return worker;
}

async function runningWithProgress(postId: string) {
  return waitFor(
    async () => {
      const job = await app.deps.queues.transcode.getJob(processPostJobId(postId));
      if (!job) return null;
      const state = await job.getState();
      return state === 'active' && typeof job.progress === 'number' && job.progress >= 5 && job.progress < 90 ? job : null;
    },
    60_000,
    'the video job to be under way',
  );
}

const statusOf = async (postId: string) =>
  (await app.deps.db.selectFrom('posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow()).status;

describe('a worker that dies mid-job', () => {
  it('loses no upload: the stalled job is picked up by another worker and the post is published', async () => {
    const { postId } = await tusUpload(asCreator, video, uploadFields('long.mp4', { optimisticId: 'crash' }), { chunkSize: 4 * 1024 * 1024 });
    const first = startWorker();
    await runningWithProgress(postId);
    killGroup(first.child.pid!, 'SIGKILL');
    expect(await first.exited).toBe(null); // killed by the signal, no exit code
    expect(await statusOf(postId)).toBe('processing');

    const second = startWorker();
    await waitFor(async () => (await statusOf(postId)) === 'published', 90_000, 'the post to be published by the second worker');
    // BullMQ marks the job completed a moment after the handler's last write
    const job = await waitFor(
      async () => {
        const found = await app.deps.queues.transcode.getJob(processPostJobId(postId));
        return found && (await found.getState()) === 'completed' ? found : null;
      },
      10_000,
      'the job to be completed',
    );
    // recovered as stalled, not failed and retried
    expect(job.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(job.failedReason ?? null).toBeNull();
    const rows = await app.deps.db.selectFrom('media_files').select(['variant', 'content_type']).where('post_id', '=', postId).orderBy('variant').execute();
    expect(rows).toEqual([
      { variant: 'original', content_type: 'video/mp4' },
      // (WebP or JPEG, whichever was smaller: worker/media/video.ts)
      { variant: 'poster', content_type: expect.stringMatching(/^image\/(webp|jpeg)$/) },
    ]);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);

  it('hands its job back when stopped (SIGTERM) after the grace period, for another worker to finish', async () => {
    const { postId } = await tusUpload(asCreator, video, uploadFields('stopped.mp4'), { chunkSize: 4 * 1024 * 1024 });
    const first = startWorker({ WORKER_SHUTDOWN_GRACE_MS: '300' });
    await runningWithProgress(postId);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const job = (await app.deps.queues.transcode.getJob(processPostJobId(postId)))!;
    // back in the queue, not failed, and no attempt used up
    expect(await job.getState()).toBe('waiting');
    expect(job.attemptsMade).toBe(0);
    expect(await statusOf(postId)).toBe('processing');

    const second = startWorker();
    await waitFor(async () => (await statusOf(postId)) === 'published', 90_000, 'the post to be published after the hand-back');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);
});
