import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ladderJobId } from '../../common/jobs';
import { dispatchOutbox } from '../../core/outbox/outbox';
import { queueAllLadderBackfill } from '../../domain/streaming/backfill';
import { makePost, makeUser } from '../helpers/factories';
import { makeVideo } from '../helpers/media-fixtures';
import { serverCommand } from '../helpers/server-command';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

// Issue 49: videos posted before ladders existed get theirs from the backfill, one job per post
// through the outbox, made once even when the worker making one is killed (SIGKILL, its ffmpeg
// with it) in the middle. The worker runs as its own process; the in-process server has none for video.

let app: TestServer;
let asCreator: TestClient;
let work: string;
let longPost: string;
let shortPost: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail', 'maintenance'] });
  const creator = await makeUser(app.deps.db, { isCreator: true });
  asCreator = await clientAs(app, creator.id);
  work = await mkdtemp(path.join(tmpdir(), 'ladder-backfill-'));
  // two posts as they were before ladders: the worker's MP4 stored, no ladder
  const posts = [];
  for (const spec of [{ seconds: 10, width: 1280, height: 720 }, { seconds: 3, width: 640, height: 360 }]) {
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'video' });
    await app.deps.storage.put(post.keys.original!, await readFile(await makeVideo(work, { ...spec, faststart: true })), 'video/mp4');
    posts.push(post.id);
  }
  [longPost, shortPost] = posts as [string, string];
}, 120_000);
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) killGroup(child.pid, 'SIGKILL');
});
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function startWorker() {
  const config = app.deps.config;
  const { command, args } = serverCommand('worker/main.ts');
  const child = spawn(command, args, {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: config.DATABASE_URL,
      REDIS_PREFIX: config.REDIS_PREFIX,
      STORAGE_DIR: config.STORAGE_DIR,
      UPLOADS_DIR: config.UPLOADS_DIR,
      MEDIA_LOCK_DURATION_MS: '5000',
      MEDIA_STALLED_INTERVAL_MS: '1000',
    },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  children.push(child);
  return { child, exited };
}

const ladders = (postId: string) => app.deps.db.selectFrom('video_ladders').selectAll().where('post_id', '=', postId).execute();
const outboxRows = () => app.deps.db.selectFrom('outbox').select(['job_id']).where('name', '=', 'build-ladder').execute();

describe('the backfill of ladders', () => {
  it('converts each existing video once, through a worker killed mid-job, and queues nothing when run again', async () => {
    expect(await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries))).toBe(2);
    // run twice before any worker: still one row and one job per post
    await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries));
    expect((await outboxRows()).map((r) => r.job_id).sort()).toEqual([ladderJobId(longPost), ladderJobId(shortPost)].sort());

    const first = startWorker();
    await waitFor(
      async () => {
        const job = await app.deps.queues.transcode.getJob(ladderJobId(longPost));
        return job && (await job.getState()) === 'active' ? job : null;
      },
      60_000,
      'the long video\'s ladder job to be under way',
    );
    // ffmpeg is making the rungs: the worker and its children lose power
    await new Promise((r) => setTimeout(r, 1500));
    killGroup(first.child.pid!, 'SIGKILL');
    expect(await first.exited).toBe(null);
    expect(await ladders(longPost)).toEqual([]);

    startWorker();
    await waitFor(async () => ((await ladders(longPost)).length > 0 && (await ladders(shortPost)).length > 0) || null, 120_000, 'both ladders');
    const [long] = await ladders(longPost);
    const [short] = await ladders(shortPost);
    expect(long!.renditions.map((r) => r.name)).toEqual(['360', '720']);
    expect(short!.renditions.map((r) => r.name)).toEqual(['360']);
    // every object the row names is stored
    for (const key of [...long!.storage_keys, ...short!.storage_keys]) expect(await app.deps.storage.exists(key)).toBe(true);
    expect(long!.storage_keys.length).toBe(new Set(long!.storage_keys).size);
    // and it plays: the playlist and each of its segments answer
    const media = await (await asCreator.fetch(`/hls/${longPost}/0/720.m3u8`)).text();
    const uris = media.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(uris).toHaveLength(5);
    for (const uri of uris) expect((await asCreator.fetch(uri)).status).toBe(200);

    // a second run finds nothing to do
    expect(await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries))).toBe(0);
    expect(await outboxRows()).toHaveLength(2);
    // the killed job was recovered as stalled (not failed), and a rerun of it adds nothing
    const job = await waitFor(
      async () => {
        const found = await app.deps.queues.transcode.getJob(ladderJobId(longPost));
        return found && (await found.getState()) === 'completed' ? found : null;
      },
      10_000,
      'the job to complete',
    );
    expect(job.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(await ladders(longPost)).toHaveLength(1);
  }, 240_000);
});
