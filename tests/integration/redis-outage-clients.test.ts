import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processPostJobId } from '../../common/jobs';
import { MESSAGE_TEXTS, UPLOAD_TEXTS } from '../../common/texts';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { refuseUnavailableHead, shouldRetryUpload, UPLOAD_RETRY_DELAYS_MS, UPLOAD_RETRY_SCHEDULE_MS } from '../../src/features/uploads/upload-retry';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { openMessagesPage, sendMessage as send } from '../helpers/messages-page';
import { startOperatorStack, type OperatorStack } from '../helpers/operator-stack';
import { trpcMutation, waitForLine } from '../helpers/processes';
import type { TestDatabase } from '../helpers/test-db';
import { uploadFields, waitFor } from '../helpers/tus';

// What the people using the app notice of a Redis outage (issue 24 items 4-6), with the server as
// an operator runs it and a private redis-server the tests stop and start again empty: an upload
// under way resumes after the outage as the same upload; messages sent during and right after it
// reach a page that stayed open; sending goes on under a limit counted in memory; a retry of a
// failed post is saved and queued once Redis is back.
let stack: OperatorStack;
let database: TestDatabase;
let url: string;
const incoming = () => stack.settings.UPLOADS_DIR!;

beforeAll(async () => {
  // what tests may shorten: a lost job is looked for every second, after 2 s idle
  stack = await startOperatorStack('redis-outage-clients', { LOST_JOB_SWEEP_INTERVAL_MS: '1000', LOST_JOB_AFTER_MS: '2000' });
  ({ database, url } = stack);
}, 60_000);
afterAll(() => stack?.stop());

const signedIn = (user: MadeUser) => stack.signedIn(user);

describe('an upload under way when Redis stops for 60 s', () => {
  it('resumes the same upload once Redis is back (HEAD answers from the upload folder, the client retries the 503s) and becomes one post', async () => {
    const creator = await makeUser(database.db, { isCreator: true });
    const { token } = await signedIn(creator);
    const bytes = randomBytes(3 * 1024 * 1024);
    const answers: { method: string; status: number; at: number }[] = [];
    let patches = 0;
    let outageFrom = 0;
    const outageMs = 60_000;

    // tus-js-client with the web app's retry rules (src/features/uploads/upload-retry.ts), as tus-upload.ts sets it up
    const finished = new Promise<{ postId: string | null; url: string | null }>((resolve, reject) => {
      const upload = new Upload(bytes, {
        endpoint: `${url}/uploads`,
        chunkSize: 256 * 1024,
        uploadSize: bytes.length,
        metadata: toUploadMetadata(uploadFields('across-the-outage.mp4')),
        headers: { cookie: `session=${token}`, origin: url },
        retryDelays: UPLOAD_RETRY_SCHEDULE_MS,
        onShouldRetry: (error, attempt) => shouldRetryUpload(error, attempt),
        onBeforeRequest: async (req) => {
          // Redis goes away just before the third chunk
          if (req.getMethod() === 'PATCH' && ++patches === 3) {
            await stack.redis.stop();
            outageFrom = Date.now();
          }
        },
        onAfterResponse: (req, res) => {
          answers.push({ method: req.getMethod(), status: res.getStatus(), at: Date.now() });
          refuseUnavailableHead(req, res);
        },
        onSuccess: ({ lastResponse }) => resolve({ postId: lastResponse.getHeader(UPLOAD_POST_ID_HEADER) ?? null, url: upload.url }),
        onError: reject,
      });
      upload.start();
    });

    await waitFor(async () => outageFrom > 0, 30_000, 'the outage to begin');
    await sleep(outageMs);
    await stack.redis.start();
    const backAt = Date.now();
    const { postId, url: uploadUrl } = await finished;

    // the outage outlasted every retry a client gets for other failures (40 s)
    expect(backAt - outageFrom).toBeGreaterThan(UPLOAD_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
    const during = answers.filter((a) => a.at > outageFrom && a.at < backAt);
    // during the outage: chunks refused with 503 (the lock is in Redis), and where the upload
    // stands answered from disk (a 5xx HEAD would have made tus-js-client start a new upload)
    expect(during.some((a) => a.method === 'PATCH' && a.status === 503)).toBe(true);
    expect(during.some((a) => a.method === 'HEAD' && a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.method === 'HEAD' && a.status !== 200)).toEqual([]);
    // one upload was created, and it is the one that finished: one post, every byte
    expect(answers.filter((a) => a.method === 'POST')).toEqual([expect.objectContaining({ status: 201 })]);
    expect(postId).toBeTruthy();
    const uploads = await database.db.selectFrom('uploads').select(['id', 'post_id', 'byte_size']).where('user_id', '=', creator.id).execute();
    expect(uploads).toEqual([{ id: uploadUrl!.split('/').pop(), post_id: postId, byte_size: String(bytes.length) }]);
    const posts = await database.db.selectFrom('posts').select('id').where('creator_id', '=', creator.id).execute();
    expect(posts).toEqual([{ id: postId }]);
    // nothing left behind in the upload folder
    await waitFor(async () => (await readdir(incoming())).length === 0, 10_000, 'the incoming upload to be removed');
  }, 150_000);
});

describe('messages across a Redis outage, to a page that stays open', () => {
  it('sends during the outage under a limit counted in memory, and every message sent during and right after it reaches the open socket, live or through the catch-up it is told to run', async () => {
    const sender = await makeUser(database.db);
    const reader = await makeUser(database.db);
    const asSender = (await signedIn(sender)).client;
    const asReader = await signedIn(reader);

    // the reader's page: the socket, and the catch-up use-live-messages.ts runs on `resync`
    const page = await openMessagesPage(url, asReader);
    const { seen } = page;
    try {
      const sent: string[] = [];
      const first = await send(asSender, reader.username, 'before the outage');
      expect(first.status).toBe(200);
      sent.push(first.message!.id);
      await waitFor(async () => seen.has(first.message!.id), 5_000, 'the first message to arrive live');

      await stack.redis.stop();
      // sending goes on: the limit is counted in this server's memory while Redis is away
      const during = await send(asSender, reader.username, 'during the outage');
      expect(during.status).toBe(200);
      sent.push(during.message!.id);
      // and it is still a limit: 30 a minute, the 31st refused with the usual words
      const chatty = (await signedIn(await makeUser(database.db))).client;
      const burst = await Promise.all(Array.from({ length: 31 }, (_, i) => send(chatty, reader.username, `burst ${i}`)));
      expect(burst.filter((r) => r.status === 200)).toHaveLength(30);
      expect(burst.filter((r) => r.status === 429).map((r) => r.error?.message)).toEqual([MESSAGE_TEXTS.sendRateLimited]);
      for (const r of burst) if (r.message) sent.push(r.message.id);
      await sleep(3_000);
      expect(seen.has(during.message!.id)).toBe(false);
      expect(page.connected()).toBe(true);

      // back, empty; messages keep coming while the server's connections find Redis again
      await stack.redis.start();
      for (let i = 0; i < 20; i++) {
        const r = await send(asSender, reader.username, `just after ${i}`);
        expect(r.status).toBe(200);
        sent.push(r.message!.id);
        await sleep(200);
      }

      await waitFor(async () => sent.every((id) => seen.has(id)), 20_000, 'every message to reach the open page').catch(() => undefined);
      expect(sent.filter((id) => !seen.has(id))).toEqual([]);
      expect(page.resyncs()).toBeGreaterThan(0);
      expect(page.connected()).toBe(true);
    } finally {
      page.close();
    }
  }, 120_000);
});

describe('retrying a failed post while Redis is down', () => {
  it("answers that the retry is saved (not 'try again'), and the post is queued once Redis is back", async () => {
    const creator = await makeUser(database.db, { isCreator: true });
    const { client } = await signedIn(creator);
    const failed = await makePost(database.db, null, { creatorId: creator.id, status: 'failed', kind: 'image' });
    // its start-up line is the one thing read from its log: the lost-job sweep runs from then on
    const worker = stack.start('worker/main.ts', { LOG_LEVEL: 'info' });
    const view = stack.queues('media');
    try {
      await waitForLine(worker, '"msg":"worker started"', 'the worker');
      await stack.redis.stop();
      const retry = await trpcMutation(client, 'posts.retryProcessing', { postId: failed.id });
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ result: { data: { json: { postId: failed.id, status: 'processing', notice: UPLOAD_TEXTS.retrySavedForLater } } } });
      const row = await database.db.selectFrom('posts').select('status').where('id', '=', failed.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('processing');

      await stack.redis.start();
      // the lost-job sweep queues it (the worker then runs it: this fixture has no upload, so it fails again)
      await waitFor(
        async () =>
          (await view.media.getJobState(processPostJobId(failed.id)).catch(() => 'unknown')) !== 'unknown' ||
          (await database.db.selectFrom('posts').select('status').where('id', '=', failed.id).executeTakeFirstOrThrow()).status !== 'processing',
        60_000,
        'the retried post to be queued',
      );
    } finally {
      await view.close();
    }
  }, 120_000);
});
