import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import type { PostLikesEvent } from '../../common/socket-events';
import { SERVER_TEXTS } from '../../common/texts';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { FACTORY_PASSWORD, makePost, makeSessionCookie, makeUser } from '../helpers/factories';
import { flatPng, makeVideo } from '../helpers/media-fixtures';
import { startOperatorStack, type OperatorStack } from '../helpers/operator-stack';
import { processClient, trpcMutation, type AppProcess } from '../helpers/processes';
import type { TestDatabase } from '../helpers/test-db';
import { tusCreate, tusPatch, tusUpload, uploadFields, waitFor } from '../helpers/tus';

// Redis stopped under traffic and started again empty (what a crash without persistence does),
// with the server and a separate worker as an operator runs them: neither process dies, requests
// that need Redis answer 503 'try again' at once while the rest keep working, and once Redis is
// back every post still 'processing' is queued again from what PostgreSQL knows and published.
let stack: OperatorStack;
let database: TestDatabase;
let work: string;
let url: string;
let server: AppProcess;
let worker: AppProcess;

beforeAll(async () => {
  // what tests may shorten: a lost job is looked for every second, after 2 s idle
  stack = await startOperatorStack('reliability-redis', { LOST_JOB_SWEEP_INTERVAL_MS: '1000', LOST_JOB_AFTER_MS: '2000' });
  ({ database, work, url, server } = stack);
  worker = stack.start('worker/main.ts');
}, 60_000);
afterAll(() => stack?.stop());

const statusOf = async (postId: string) =>
  (await database.db.selectFrom('posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow()).status;

describe('Redis stopped during a like, an upload finish and a transcode, then started empty', () => {
  it('keeps both processes alive, answers 503 only where Redis is needed, and publishes every processing post within a minute', async () => {
    const creator = await makeUser(database.db, { isCreator: true });
    const fan = await makeUser(database.db);
    const fanEmail = (await database.db.selectFrom('users').select('email').where('id', '=', fan.id).executeTakeFirstOrThrow()).email;
    const liked = await makePost(database.db, null, { creatorId: creator.id });
    const asCreator = processClient(url, (await makeSessionCookie(database.db, creator.id)).token);
    const asFan = processClient(url, (await makeSessionCookie(database.db, fan.id)).token);
    const anonymous = processClient(url, null);
    const view = stack.queues('transcode', 'maintenance');
    // a page open on the liked post, connected through the whole outage; told to catch up once
    // this server copy's subscription is back (server/realtime/socket-server.ts)
    const watcher = connect(url, { transports: ['websocket'], extraHeaders: { origin: url }, reconnection: false });
    let toldToCatchUp = 0;
    watcher.on('resync', () => (toldToCatchUp += 1));
    try {
      await new Promise<void>((resolve, reject) => watcher.once('connect', resolve).once('connect_error', reject));
      const joined = await new Promise<{ ids: string[] }>((resolve) => watcher.emit('room:join', { kind: 'post', ids: [liked.id] }, resolve));
      expect(joined.ids).toEqual([liked.id]);

      // a transcode under way in the worker process
      const video = await readFile(await makeVideo(work, { seconds: 20, width: 1280, height: 720 }));
      const transcoding = await tusUpload(asCreator, video, uploadFields('during-outage.mp4'), { chunkSize: 8 * 1024 * 1024 });
      await waitFor(
        async () => {
          const job = await view.transcode.getJob(processPostJobId(transcoding.postId));
          return job && (await job.getState()) === 'active' && typeof job.progress === 'number' && job.progress >= 5;
        },
        60_000,
        'the transcode to be under way',
      );
      // an upload whose last bytes arrive while Redis is down
      const image = await flatPng(64, 64, '#36c');
      const created = await tusCreate(asCreator, image.length, uploadFields('finished-during-outage.png'));
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      expect((await tusPatch(asCreator, location, 0, image.subarray(0, 100))).status).toBe(204);

      await stack.redis.stop();

      const [like, signIn, finish] = await Promise.all([
        trpcMutation(asFan, 'posts.like', { postId: liked.id }),
        trpcMutation(anonymous, 'auth.signIn', { email: fanEmail, password: FACTORY_PASSWORD }),
        (async () => {
          const started = Date.now();
          const res = await tusPatch(asCreator, location, 100, image.subarray(100));
          return { status: res.status, ms: Date.now() - started, postId: res.headers.get(UPLOAD_POST_ID_HEADER) };
        })(),
      ]);
      // a like needs only PostgreSQL: its write budget is counted in the server's memory while
      // Redis is away (server/auth/write-budgets.ts), so it is counted (its broadcast is dropped, and logged)
      expect(like.status).toBe(200);
      expect(like.ms).toBeLessThan(3_000);
      expect(await database.db.selectFrom('post_likes').select('user_id').where('post_id', '=', liked.id).execute()).toEqual([{ user_id: fan.id }]);
      // reading needs only PostgreSQL
      const read = await asFan.fetch(`/trpc/posts.byId?input=${encodeURIComponent(JSON.stringify({ json: { id: liked.id } }))}`);
      expect(read.status).toBe(200);
      // sign-in is rate limited in Redis: refused, fast, with words to try again (fails closed)
      expect(signIn.status).toBe(503);
      expect(signIn.body).toMatchObject({ error: { json: { message: SERVER_TEXTS.unavailable, data: { code: 'SERVICE_UNAVAILABLE' } } } });
      expect(signIn.ms).toBeLessThan(3_000);
      // the finish needs the upload's lock, which every server copy shares through Redis: it
      // does not hang, it is refused fast with 503 (tus clients retry), and no post is made yet
      expect(finish.status).toBe(503);
      expect(finish.ms).toBeLessThan(4_000);
      expect(finish.postId).toBeFalsy();

      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', postgres: 'ok', redis: 'unavailable', down: ['redis'] });
      // time for every connection to fail its reconnects and the transcode to report progress
      await sleep(3_000);
      expect(server.alive()).toBe(true);
      expect(worker.alive()).toBe(true);

      // back, with nothing in it: no job, no schedule
      const backAt = Date.now();
      const resyncsBefore = toldToCatchUp;
      await stack.redis.start();

      // the client's retry of the last bytes finishes the upload once Redis answers again
      let finishedPostId: string | null = null;
      await waitFor(
        async () => {
          const res = await tusPatch(asCreator, location, 100, image.subarray(100));
          finishedPostId = res.status === 204 ? res.headers.get(UPLOAD_POST_ID_HEADER) : null;
          return finishedPostId !== null;
        },
        30_000,
        'the retried finish to be taken',
      );
      await waitFor(
        async () => (await statusOf(transcoding.postId)) === 'published' && (await statusOf(finishedPostId!)) === 'published',
        60_000,
        'both posts to be published',
      );
      expect(Date.now() - backAt).toBeLessThan(60_000);
      const processing = await database.db.selectFrom('posts').select('id').where('status', '=', 'processing').execute();
      expect(processing).toEqual([]);
      // the repeatable jobs are scheduled again
      await waitFor(async () => Boolean(await view.maintenance.getJobScheduler('purge-expired')), 10_000, 'the schedules to be re-created');

      // everything works again, with no restart: rate-limited sign-in, and live updates (the
      // adapter subscribed again, which it tells the open page, and the emitter publishes again)
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const again = await trpcMutation(anonymous, 'auth.signIn', { email: fanEmail, password: FACTORY_PASSWORD });
      expect(again.status).toBe(200);
      expect(watcher.connected, 'the open page kept its socket through the outage').toBe(true);
      await waitFor(async () => toldToCatchUp > resyncsBefore, 30_000, 'the open page to be told to catch up');
      const heard = new Promise<PostLikesEvent>((resolve) => watcher.once('post:likes', resolve));
      expect((await trpcMutation(asCreator, 'posts.like', { postId: liked.id })).status).toBe(200);
      // a bound on the wait, not a pause: the event comes at once, later only on a loaded machine
      expect(await Promise.race([heard, sleep(15_000).then(() => null)])).toEqual({ postId: liked.id, likes: 2 });
      expect(server.alive()).toBe(true);
      expect(worker.alive()).toBe(true);
    } finally {
      watcher.disconnect();
      await view.close();
    }

    server.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await server.exited, `the server's warnings and errors:\n${server.output().slice(-4_000)}`).toBe(0);
    expect(await worker.exited).toBe(0);
  }, 150_000);
});
