import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnrecoverableError, Worker } from 'bullmq';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { massMessageJobId } from '../../common/jobs';
import { PAID_MESSAGE_TEXTS as T } from '../../common/paid-message-texts';
import { OUTBOX_MAX_RELAYS } from '../../core/outbox/outbox';
import { createRedis } from '../../core/redis';
import { generateVapidKeys } from '../../core/push/web-push';
import { messageGroupKey, newPostGroupKey } from '../../domain/notifications/notify';
import { runWorkers } from '../../worker/workers';
import { forgetEverything, stepThrough } from '../helpers/chain-steps';
import { makePost, makeSubscription, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

/**
 * Issue 44 item 2: work that continues itself survives Redis forgetting. A message to many, a new
 * post's fan-out and a notification's pushes each run here one job at a time, and after every job
 * Redis forgets everything of the run's prefix (a restart without persistence): the next step is
 * there only because its outbox row was written with the step before, and the relay queues it
 * again. Batches of 3 (MASS_MESSAGE_BATCH_SIZE, NOTIFY_FANOUT_BATCH_SIZE) make a long chain of a
 * few users. The server runs no workers; the keeper's tests start the worker as a process runs it
 * (runWorkers: workers and keeper), with the keeper's sweep every 200 ms and a chain idle for 1 s
 * counted as stalled.
 */
let app: TestServer;
let pushService: Server;
let pushUrl: string;
/** the path of every push the tests' push service took (answered 201) */
const pushHits: string[] = [];
/** paths whose next push the push service refuses (500, as a push service having a bad moment) */
const refuseOnce = new Set<string>();
const refused: string[] = [];
// any browser's keys: web-push encrypts to them, the tests' push service only counts
const browserKeys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };

beforeAll(async () => {
  pushService = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      if (refuseOnce.delete(path)) {
        refused.push(path);
        res.writeHead(500).end();
        return;
      }
      pushHits.push(path);
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((r) => pushService.listen(0, '127.0.0.1', r));
  pushUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
  const vapid = generateVapidKeys();
  app = await startTestServer({
    workerQueues: [],
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_ALLOW_LOCAL_ENDPOINTS: 'true',
      MASS_MESSAGE_BATCH_SIZE: '3',
      NOTIFY_FANOUT_BATCH_SIZE: '3',
      LOST_JOB_SWEEP_INTERVAL_MS: '200',
      LOST_JOB_AFTER_MS: '1000',
    },
  });
});
afterAll(async () => {
  await app?.close();
  pushService?.close();
});

/** A browser of `userId` subscribed to push at the tests' push service; returns the path its pushes arrive at. */
async function browserOf(userId: string): Promise<string> {
  const path = `/push/${randomUUID()}`;
  await app.deps.db.insertInto('push_subscriptions').values({ user_id: userId, endpoint: `${pushUrl}${path}`, ...browserKeys }).execute();
  return path;
}

async function creatorWithFans(n: number) {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fans: string[] = [];
  for (let i = 0; i < n; i++) {
    const fan = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
    fans.push(fan.id);
  }
  return { creator, fans: fans.sort() };
}

async function sendToAll(creatorId: string): Promise<string> {
  const asCreator = await clientAs(app, creatorId);
  const { id } = await asCreator.trpc.massMessages.create.mutate({ audience: 'active', content: 'To each of you', clientId: `chain-${randomUUID().slice(0, 8)}` });
  return id;
}

/** Recipients of a message to many's copies, one entry per copy. */
const copiesOf = async (massMessageId: string) =>
  (await app.deps.db.selectFrom('messages').select('recipient_id').where('mass_message_id', '=', massMessageId).execute()).map((r) => r.recipient_id).sort();

const names = (steps: { name: string }[]) => steps.map((s) => s.name);

describe('chains of jobs when Redis forgets between every two steps', () => {
  it('a message to many reaches every fan once, batch after batch, and is delivered', async () => {
    const { creator, fans } = await creatorWithFans(10);
    const id = await sendToAll(creator.id);

    const steps = await stepThrough(app, ['mass-messages', 'notifications']);
    // four batches (3, 3, 3, 1), each batch's notifications delivered by one job, Redis emptied after each
    expect(names(steps).filter((n) => n === 'deliver-mass-message')).toHaveLength(4);
    expect(names(steps).filter((n) => n === 'deliver-notifications')).toHaveLength(4);
    expect(names(steps).filter((n) => n === 'deliver-notification')).toHaveLength(0);

    expect(await copiesOf(id)).toEqual(fans);
    expect(await app.deps.db.selectFrom('mass_messages').select(['status', 'recipients_total']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'sent', recipients_total: 10 });
    const told = await app.deps.db.selectFrom('notifications').select(['user_id', 'actor_count']).where('group_key', '=', messageGroupKey(creator.id)).execute();
    expect(told.map((t) => [t.user_id, t.actor_count]).sort()).toEqual(fans.map((f) => [f, 1]));
    const [shown] = (await (await clientAs(app, creator.id)).trpc.massMessages.list.query({})).items;
    expect(shown).toMatchObject({ id, status: 'sent', sent: 10, stoppedTotal: null });
  });

  it('a message to many’s batch deliveries, run again after a worker died before marking them done, write each browser’s push once', async () => {
    const { creator, fans } = await creatorWithFans(4);
    for (const fan of fans) await browserOf(fan);
    await browserOf(fans[0]!);
    const id = await sendToAll(creator.id);
    await stepThrough(app, ['mass-messages', 'notifications']);
    const pushRows = () =>
      app.deps.db.selectFrom('outbox').select('job_id').where('name', '=', 'send-push').where(sql<boolean>`data->>'notificationId' in (select id::text from notifications where group_key = ${messageGroupKey(creator.id)})`).execute();
    // five browsers (the first fan has two): a push each, waiting for the message's push delay
    expect(await pushRows()).toHaveLength(5);
    // the worker died after each batch's delivery, before its outbox row was marked done: the relay hands them back
    const handedBack = await app.deps.db.updateTable('outbox').set({ done_at: null }).where('name', '=', 'deliver-notifications').where('job_id', 'like', `%${id}%`).executeTakeFirst();
    expect(Number(handedBack.numUpdatedRows)).toBe(2);
    const again = await stepThrough(app, ['notifications']);
    expect(names(again).filter((n) => n === 'deliver-notifications')).toHaveLength(2);
    expect(await pushRows()).toHaveLength(5);
  });

  it('a new post reaches every subscriber and each of their browsers once, its next batch still ahead of the pushes', async () => {
    const { creator, fans } = await creatorWithFans(10);
    const browsers = new Map<string, string>();
    for (const fan of fans) browsers.set(fan, await browserOf(fan));
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, status: 'draft', kind: null, text: 'new for you' });
    await (await clientAs(app, creator.id)).trpc.profiles.publishDraft.mutate({ postId: draft.id });

    const steps = await stepThrough(app, ['notify-fanout', 'notify-push']);
    // every batch (3, 3, 3, 1) jumps the queue (lifo), even when the relay queued it again; each
    // batch's pushes are one job
    expect(names(steps)).toEqual([...Array<string>(4).fill('fan-out-post'), ...Array<string>(4).fill('send-push-batch')]);

    const told = await app.deps.db.selectFrom('notifications').select('user_id').where('group_key', '=', newPostGroupKey(draft.id)).execute();
    expect(told.map((t) => t.user_id).sort()).toEqual(fans);
    for (const [fan, path] of browsers) expect(pushHits.filter((p) => p === path), fan).toHaveLength(1);
  });

  it('a batch of pushes retried after its push service failed some sends only those: every browser gets its push once', async () => {
    const { creator, fans } = await creatorWithFans(3);
    const paths = await Promise.all(fans.map((fan) => browserOf(fan)));
    refuseOnce.add(paths[1]!);
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, status: 'draft', kind: null, text: 'new for you' });
    await (await clientAs(app, creator.id)).trpc.profiles.publishDraft.mutate({ postId: draft.id });

    const steps = await stepThrough(app, ['notify-fanout', 'notify-push']);
    // the batch failed once (one push refused), Redis forgot it, the relay handed its row back
    expect(steps.map((s) => [s.name, s.failed ?? false])).toEqual([
      ['fan-out-post', false],
      ['fan-out-post', false],
      ['send-push-batch', true],
      ['send-push-batch', false],
    ]);
    expect(refused).toContain(paths[1]);
    for (const path of paths) expect(pushHits.filter((p) => p === path), path).toHaveLength(1);
  });

  it('a notification reaches each of its user’s browsers once', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const paths = [await browserOf(creator.id), await browserOf(creator.id), await browserOf(creator.id)];
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, text: 'say something' });
    const fan = await makeUser(app.deps.db);
    await (await clientAs(app, fan.id)).trpc.comments.add.mutate({ postId: post.id, text: 'lovely' });

    const steps = await stepThrough(app, ['notifications']);
    expect(names(steps)).toEqual(['deliver-notification', 'send-push', 'send-push', 'send-push']);
    for (const path of paths) expect(pushHits.filter((p) => p === path), path).toHaveLength(1);
  });
});

describe('the keeper and messages to many that stop', () => {
  it('resumes one that made no progress for a while from its saved cursor, writing nobody twice', async () => {
    const { creator, fans } = await creatorWithFans(7);
    const id = await sendToAll(creator.id);
    await stepThrough(app, ['mass-messages'], { forget: false, limit: 1 });
    expect(await copiesOf(id)).toHaveLength(3);
    // its next step lost as a version that queued it only in Redis lost it: no row, and Redis forgot the job
    const { cursor } = await app.deps.db.selectFrom('mass_messages').select('cursor').where('id', '=', id).executeTakeFirstOrThrow();
    await app.deps.db.deleteFrom('outbox').where('job_id', '=', massMessageJobId(id, cursor)).execute();
    await forgetEverything(app);

    const worker = await runWorkers(app.deps);
    try {
      await waitFor(async () => (await app.deps.db.selectFrom('mass_messages').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'sent', 20_000, 'the message to many delivered');
    } finally {
      await worker.close();
    }
    expect(await copiesOf(id)).toEqual(fans);
  });

  it('shows the creator where one stopped when its next batch failed for good', async () => {
    const { creator } = await creatorWithFans(5);
    const id = await sendToAll(creator.id);
    await stepThrough(app, ['mass-messages'], { forget: false, limit: 1 });
    const { cursor } = await app.deps.db.selectFrom('mass_messages').select('cursor').where('id', '=', id).executeTakeFirstOrThrow();
    const jobId = massMessageJobId(id, cursor);

    // the next batch's job fails for good in BullMQ, and the relay has handed it back
    // OUTBOX_MAX_RELAYS times already (hours of backoff, stood in for by the row's count)
    const connection = createRedis(app.deps.config.REDIS_URL, { forBullmq: true });
    const taker = new Worker('mass-messages', null, { connection, prefix: app.deps.config.REDIS_PREFIX, autorun: false });
    try {
      const token = randomUUID();
      const job = await taker.getNextJob(token, { block: false });
      expect(job?.id).toBe(jobId);
      await job!.moveToFailed(new UnrecoverableError('this batch keeps failing'), token);
    } finally {
      await taker.close();
      connection.disconnect();
    }
    await app.deps.db.updateTable('outbox').set({ relays: OUTBOX_MAX_RELAYS, relayed_at: new Date(Date.now() - 86_400_000) }).where('job_id', '=', jobId).execute();

    const asCreator = await clientAs(app, creator.id);
    const worker = await runWorkers(app.deps);
    try {
      await waitFor(async () => (await asCreator.trpc.massMessages.list.query({})).items[0]?.status === 'failed', 20_000, 'the message to many shown as stopped');
    } finally {
      await worker.close();
    }
    const [shown] = (await asCreator.trpc.massMessages.list.query({})).items;
    expect(shown).toMatchObject({ id, status: 'failed', sent: 3, stoppedTotal: 5 });
    expect(T.status[shown!.status]).toBe('Stopped');
    expect(T.stopped(shown!.sent, shown!.stoppedTotal!)).toBe('Stopped: delivered to 3 of 5. Delivery failed on our side and the others did not get this message.');
    // nothing delivered it further
    expect(await copiesOf(id)).toHaveLength(3);
  });
});
