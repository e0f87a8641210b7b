import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { attachmentLadderJobId, ladderJobId } from '../../common/jobs';
import { dispatchOutbox } from '../../core/outbox/outbox';
import { attachmentFileKey } from '../../domain/messaging/attachments';
import { queueAllLadderBackfill } from '../../domain/streaming/backfill';
import { makePost, makeUser } from '../helpers/factories';
import { makeVideo } from '../helpers/media-fixtures';
import { serverCommand } from '../helpers/server-command';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

// Issue 49: videos posted (and chat videos sent) before ladders existed get theirs from the
// backfill, one job per post and per chat video through the outbox, made once even when the worker
// making them is killed (SIGKILL, its ffmpeg with it) in the middle. The worker runs as its own
// process; the in-process server has none for video.

let app: TestServer;
let asCreator: TestClient;
let work: string;
let longPost: string;
let shortPost: string;
let longChat: string;
let shortChat: string;
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
  // two chat videos as they were before ladders: ready, their MP4 stored, no ladder
  const chats = [];
  for (const spec of [{ seconds: 6, width: 1280, height: 720 }, { seconds: 3, width: 640, height: 360 }]) {
    const id = randomUUID();
    const key = attachmentFileKey(id, randomUUID(), 'mp4');
    const bytes = await readFile(await makeVideo(work, { name: `chat-${spec.seconds}.mp4`, ...spec, faststart: true }));
    await app.deps.storage.put(key, bytes, 'video/mp4');
    await app.deps.db
      .insertInto('message_attachments')
      .values({ id, owner_id: creator.id, kind: 'video', status: 'ready', original_filename: 'clip.mp4', byte_size: bytes.length, storage_key: key, content_type: 'video/mp4', width: spec.width, height: spec.height, duration_seconds: spec.seconds })
      .execute();
    chats.push(id);
  }
  [longChat, shortChat] = chats as [string, string];
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
const outboxRows = () => app.deps.db.selectFrom('outbox').select(['job_id']).where('name', 'in', ['build-ladder', 'build-attachment-ladder']).execute();
const chatLadder = async (id: string) =>
  (await app.deps.db.selectFrom('message_attachments').select(['ladder', 'ladder_keys']).where('id', '=', id).executeTakeFirstOrThrow());
/** The job once it is in `state`, waiting up to `ms`. */
const jobIn = (queue: 'transcode' | 'attachment-transcode', jobId: string, state: string, ms: number) =>
  waitFor(
    async () => {
      const job = await app.deps.queues[queue].getJob(jobId);
      return job && (await job.getState()) === state ? job : null;
    },
    ms,
    `${jobId} to be ${state}`,
  );

describe('the backfill of ladders', () => {
  it('converts each existing video and chat video once, through a worker killed mid-job, and queues nothing when run again', async () => {
    expect(await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries))).toEqual({ posts: 2, chatVideos: 2 });
    // run twice before any worker: still one row and one job per post and per chat video
    await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries));
    expect((await outboxRows()).map((r) => r.job_id).sort()).toEqual(
      [ladderJobId(longPost), ladderJobId(shortPost), attachmentLadderJobId(longChat), attachmentLadderJobId(shortChat)].sort(),
    );

    const first = startWorker();
    // both queues' long jobs under way at once (each queue has its own worker in the process)
    await jobIn('transcode', ladderJobId(longPost), 'active', 60_000);
    await jobIn('attachment-transcode', attachmentLadderJobId(longChat), 'active', 60_000);
    // ffmpeg is making the rungs: the worker and its children lose power
    await new Promise((r) => setTimeout(r, 1500));
    killGroup(first.child.pid!, 'SIGKILL');
    expect(await first.exited).toBe(null);
    expect(await ladders(longPost)).toEqual([]);
    expect((await chatLadder(longChat)).ladder).toBeNull();

    startWorker();
    await waitFor(
      async () =>
        ((await ladders(longPost)).length > 0 && (await ladders(shortPost)).length > 0 && (await chatLadder(longChat)).ladder && (await chatLadder(shortChat)).ladder) || null,
      240_000,
      'every ladder',
    ).catch(async (error: Error) => {
      // which job was where, for the failure's reader
      const jobs = await Promise.all([
        ...[longPost, shortPost].map((id) => app.deps.queues.transcode.getJob(ladderJobId(id))),
        ...[longChat, shortChat].map((id) => app.deps.queues['attachment-transcode'].getJob(attachmentLadderJobId(id))),
      ]);
      const states = await Promise.all(jobs.map(async (j) => `${j?.id}: ${await j?.getState()} ${j?.failedReason ?? ''} stalled ${j?.stalledCounter}`));
      throw new Error(`${error.message}\n${states.join('\n')}`);
    });
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

    // the chat videos too: their rungs, every object stored once under the attachment, and they play
    const chatLong = await chatLadder(longChat);
    expect(chatLong.ladder!.renditions.map((r) => r.name)).toEqual(['360', '720']);
    expect((await chatLadder(shortChat)).ladder!.renditions.map((r) => r.name)).toEqual(['360']);
    for (const key of [...chatLong.ladder_keys, ...(await chatLadder(shortChat)).ladder_keys]) expect(await app.deps.storage.exists(key)).toBe(true);
    expect(chatLong.ladder_keys.length).toBe(new Set(chatLong.ladder_keys).size);
    expect(chatLong.ladder_keys.every((k) => k.startsWith(`messages/${longChat}/hls/`))).toBe(true);
    const chatMedia = await (await asCreator.fetch(`/media/messages/${longChat}/hls/720.m3u8`)).text();
    const chatUris = chatMedia.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(chatUris).toHaveLength(3);
    for (const uri of chatUris) expect((await asCreator.fetch(uri)).status).toBe(200);

    // a second run finds nothing to do
    expect(await queueAllLadderBackfill(app.deps.db, (entries) => dispatchOutbox(app.deps, entries))).toEqual({ posts: 0, chatVideos: 0 });
    expect(await outboxRows()).toHaveLength(4);
    // the killed jobs were recovered as stalled (not failed), and a rerun of them adds nothing
    const job = await jobIn('transcode', ladderJobId(longPost), 'completed', 10_000);
    expect(job.stalledCounter).toBeGreaterThanOrEqual(1);
    const chatJob = await jobIn('attachment-transcode', attachmentLadderJobId(longChat), 'completed', 10_000);
    expect(chatJob.stalledCounter).toBeGreaterThanOrEqual(1);
    expect(await ladders(longPost)).toHaveLength(1);
  }, 420_000);
});
