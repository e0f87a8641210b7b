import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { makePost, makeUser } from '../helpers/factories';
import { jobIn } from '../helpers/jobs';
import { makeAudio, makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer, useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { tusCreate, tusHead, tusPatch, tusUpload, uploadFields, waitFor } from '../helpers/tus';

// Costly media is bounded: what no creator needs is refused before it is transcoded (above 4K,
// above 60 fps, longer than 30 minutes of video or 60 of audio), a job is killed when it runs
// past its time limit, and one creator cannot fill the transcode queue for everyone.

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'media-limits-'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const settled = (app: TestServer, id: string, timeoutMs = 60_000) =>
  waitFor(
    async () => {
      const row = await app.deps.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return row.status !== 'processing' ? row : null;
    },
    timeoutMs,
    `post ${id} to be processed`,
  );

/** The post failed with `reason`, made nothing, and its job failed once (no retry). */
async function expectRefused(app: TestServer, postId: string, reason: string) {
  expect(await settled(app, postId)).toMatchObject({ status: 'failed', failure_reason: reason });
  const rows = await app.deps.db.selectFrom('media_files').select('variant').where('post_id', '=', postId).execute();
  expect(rows).toEqual([{ variant: 'original' }]);
  const job = await jobIn(app.deps.queues.transcode, processPostJobId(postId), 'failed');
  expect(job.attemptsMade).toBe(1);
  expect(job.failedReason).toBe(reason);
}

describe('media the worker refuses before transcoding', () => {
  let app: TestServer;
  let creator: TestClient;
  beforeAll(async () => {
    app = await startTestServer();
    creator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a video above 60 frames per second', async () => {
    const video = await readFile(await makeVideo(work, { name: 'fast.mp4', seconds: 1, width: 160, height: 120, fps: 90 }));
    const { postId } = await tusUpload(creator, video, uploadFields('fast.mp4'));
    await expectRefused(app, postId, 'The video has too many frames per second: at most 60.');
  });

  it('a video larger than 4K, lying down or upright', async () => {
    for (const [width, height] of [[3856, 64], [64, 3856]] as const) {
      const name = `big-${width}x${height}.mp4`;
      const video = await readFile(await makeVideo(work, { name, seconds: 1, width, height, audio: false }));
      const { postId } = await tusUpload(creator, video, uploadFields(name));
      await expectRefused(app, postId, "The video's picture is too large: at most 3840x2160 pixels (4K).");
    }
  });

  it('a video longer than 30 minutes and audio longer than 60', async () => {
    const video = await readFile(await makeVideo(work, { name: 'long.mp4', seconds: 30 * 60 + 1, width: 32, height: 32, fps: 1, audio: false }));
    const longVideo = await tusUpload(creator, video, uploadFields('long.mp4'));
    await expectRefused(app, longVideo.postId, 'The video is too long: at most 30 minutes.');

    const audio = await readFile(await makeAudio(work, 'long.mp3', 60 * 60 + 1, { small: true }));
    const longAudio = await tusUpload(creator, audio, uploadFields('long.mp3'));
    await expectRefused(app, longAudio.postId, 'The audio file is too long: at most 60 minutes.');
  }, 60_000);
});

describe('the time limit of a job', () => {
  // 1/10000 of the real limit: a 3-second video gets 7 ms instead of 69 s
  const app = useTestServer({ env: { MEDIA_TIME_LIMIT_SCALE: '0.0001' } });

  it("fails a job that runs past it with 'took too long', and leaves no ffmpeg behind", async () => {
    const creator = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    const video = await readFile(await makeVideo(work, { name: 'slow.mp4', seconds: 3, width: 320, height: 240 }));
    const { postId } = await tusUpload(creator, video, uploadFields('slow.mp4'));
    await expectRefused(app, postId, 'The video took too long to process.');
    expect(await processesMentioning(`media-${postId}-`)).toEqual([]);
  });
});

/** Command lines of the running processes that contain `text` (the job's work directory). */
async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(cmdline.replace(/\0/g, ' '));
  }
  return found;
}

describe('posts processing at once, per creator', () => {
  // no media workers: posts stay processing, as they would behind a long queue
  let app: TestServer;
  let image: Buffer;
  beforeAll(async () => {
    app = await startTestServer({ workerQueues: ['mail', 'maintenance'] });
    image = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } }).jpeg().toBuffer();
  });
  afterAll(async () => {
    await app?.close();
  });

  const TOO_MANY = {
    code: 'TOO_MANY_PROCESSING',
    title: 'Too many uploads processing',
    description: 'You have 5 posts being processed: wait for one to finish, then upload again.',
    message: 'Too many uploads processing - You have 5 posts being processed: wait for one to finish, then upload again.',
  };
  const errorOf = async (res: Response) => ((await res.json()) as { error: Record<string, string> }).error;
  const processingOf = async (userId: string) =>
    app.deps.db.selectFrom('posts').select('id').where('creator_id', '=', userId).where('status', '=', 'processing').execute();
  const incomingCount = async () => (await readdir(app.deps.config.UPLOADS_DIR).catch(() => [])).length;

  it('refuses a sixth upload when it is created, before its bytes travel, with the message the form shows', async () => {
    expect(app.deps.config.MAX_PROCESSING_POSTS_PER_CREATOR).toBe(5);
    const user = await makeUser(app.deps.db, { isCreator: true });
    const creator = await clientAs(app, user.id);
    for (let i = 0; i < 5; i++) await tusUpload(creator, image, uploadFields(`n${i}.jpg`));
    expect(await processingOf(user.id)).toHaveLength(5);

    // a finished upload's incoming file is removed just after its last answer: wait for that
    await waitFor(async () => ((await incomingCount()) === 0 ? true : null), 5_000, 'finished uploads to leave the incoming directory');
    const refused = await tusCreate(creator, image.length, uploadFields('sixth.jpg'));
    expect(refused.status).toBe(429);
    expect(await errorOf(refused)).toEqual(TOO_MANY);
    expect(await incomingCount()).toBe(0);

    // another creator is not held back (and a created upload does show in the incoming directory)
    const other = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    expect((await tusCreate(other, image.length, uploadFields('other.jpg'))).status).toBe(201);
    expect(await incomingCount()).toBeGreaterThan(0);

    // a post that is done (here: failed) makes room again
    const [first] = await processingOf(user.id);
    await app.deps.db.updateTable('posts').set({ status: 'failed', failure_reason: 'x' }).where('id', '=', first!.id).execute();
    await tusUpload(creator, image, uploadFields('sixth.jpg'));
    expect(await processingOf(user.id)).toHaveLength(5);
  });

  it('counts again at the finish: uploads started together make no more than the limit, and the others can finish later', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const creator = await clientAs(app, user.id);
    const locations: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await tusCreate(creator, image.length, uploadFields(`together-${i}.jpg`));
      expect(created.status).toBe(201);
      locations.push(created.headers.get('location')!);
    }
    const finishes = await Promise.all(locations.map((location) => tusPatch(creator, location, 0, image)));
    const statuses = finishes.map((res) => res.status).sort();
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429, 429, 429]);
    for (const res of finishes.filter((r) => r.status === 429)) expect(await errorOf(res)).toEqual(TOO_MANY);
    expect(await processingOf(user.id)).toHaveLength(5);

    // a refused upload keeps its bytes: once a post is done, asking where it stands finishes it
    const refusedAt = locations[finishes.findIndex((res) => res.status === 429)]!;
    expect((await tusHead(creator, refusedAt)).status).toBe(429);
    const [done] = await processingOf(user.id);
    await app.deps.db.updateTable('posts').set({ status: 'draft', target_status: 'draft' }).where('id', '=', done!.id).execute();
    const head = await tusHead(creator, refusedAt);
    expect(head.status).toBe(200);
    expect(head.headers.get(UPLOAD_POST_ID_HEADER)).toBeTruthy();
    expect(await processingOf(user.id)).toHaveLength(5);
  });

  it('counts a retried post like an upload: refused with the same words at the limit, let through once a place is free', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const creator = await clientAs(app, user.id);
    const failedPost = () => makePost(app.deps.db, null, { creatorId: user.id, status: 'failed' });
    const statusOf = async (id: string) =>
      (await app.deps.db.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const queued = async (id: string) => Boolean(await app.deps.queues.media.getJob(processPostJobId(id)));
    const [first, second, third] = [await failedPost(), await failedPost(), await failedPost()];
    for (let i = 0; i < 5; i++) await makePost(app.deps.db, null, { creatorId: user.id, status: 'processing' });

    await expectTrpcError(creator.trpc.posts.retryProcessing.mutate({ postId: first.id }), 'TOO_MANY_REQUESTS', TOO_MANY.message);
    expect(await statusOf(first.id)).toBe('failed');
    expect(await processingOf(user.id)).toHaveLength(5);
    expect(await queued(first.id)).toBe(false);
    // a post that is not failed still reads as such, full or not
    const [processing] = await processingOf(user.id);
    await expectTrpcError(creator.trpc.posts.retryProcessing.mutate({ postId: processing!.id }), 'BAD_REQUEST', 'Only a failed post can be retried');

    // two places free: of three retries at once, two pass and the third is refused. The failed
    // rows are held locked until all three retries wait, so they run truly at once.
    const done = (await processingOf(user.id)).slice(0, 2).map((p) => p.id);
    await app.deps.db.updateTable('posts').set({ status: 'published', published_at: new Date() }).where('id', 'in', done).execute();
    const ids = [first, second, third].map((p) => p.id);
    const hold = await app.deps.db.startTransaction().execute();
    await hold.selectFrom('posts').select('id').where('id', 'in', ids).forUpdate().execute();
    const retries = Promise.allSettled(ids.map((postId) => creator.trpc.posts.retryProcessing.mutate({ postId })));
    await waitFor(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(app.deps.db);
      return rows[0]!.n >= 3 ? true : null;
    });
    await hold.commit().execute();
    const outcomes = await retries;
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    const [refused] = outcomes.filter((o) => o.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ message: TOO_MANY.message, data: { code: 'TOO_MANY_REQUESTS' } });
    expect(await processingOf(user.id)).toHaveLength(5);
    const retried = [first, second, third].filter((_, i) => outcomes[i]!.status === 'fulfilled');
    for (const post of retried) {
      expect(await statusOf(post.id)).toBe('processing');
      expect(await queued(post.id)).toBe(true);
    }
  });
});
