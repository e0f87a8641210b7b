import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES, type QueueName } from '../../common/jobs';
import { relayOutbox } from '../../core/outbox/outbox';
import type { SessionUser } from '../../core/sessions/resolved-session';
import { subscribe } from '../../server/features/subscriptions/subscriptions.service';
import { startWorkers } from '../../worker/workers';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { jpegWithExif } from '../helpers/media-fixtures';
import { type TestClient, useTestServer } from '../helpers/test-server';
import { forgetEverything as forgetAll } from '../helpers/chain-steps';

/**
 * Issue 24 item 2: PostgreSQL holds every piece of pending work. The server runs no workers here,
 * so the jobs it queues wait in Redis; then Redis forgets everything (every key of the run's
 * prefix, as a restart without persistence does), and only the outbox relay can bring the work back.
 */
const app = useTestServer({ workerQueues: [] });

const forgetEverything = () => forgetAll(app);

/** Workers of every queue, until each queue has nothing left to do. */
async function runWorkersThrough(queues: readonly QueueName[] = QUEUE_NAMES): Promise<void> {
  const workers = await startWorkers(app.deps);
  try {
    for (const queue of queues) await app.drain(queue, 30_000);
  } finally {
    await workers.close();
  }
}

async function signIn(user: MadeUser): Promise<TestClient> {
  const client = app.client();
  await client.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
  return client;
}

describe('Redis loses its data', () => {
  it('mail, a deleted post’s files, Delete All Data’s files, an export and an avatar still happen once the relay runs', async () => {
    const { db, storage } = app.deps;
    // a reset link asked for
    const forgetful = await makeUser(db);
    await app.client().trpc.auth.requestPasswordReset.mutate({ email: forgetful.email });
    // a post deleted
    const creator = await makeUser(db, { isCreator: true });
    const deleted = await makePost(db, storage, { creatorId: creator.id, text: 'going' });
    await (await signIn(creator)).trpc.posts.delete.mutate({ postId: deleted.id });
    // Delete All Data
    const leaver = await makeUser(db, { isCreator: true });
    const leaversPost = await makePost(db, storage, { creatorId: leaver.id, text: 'mine' });
    await (await signIn(leaver)).trpc.account.deleteAllData.mutate({ password: leaver.password });
    // an export asked for
    const exporter = await makeUser(db);
    const exporterClient = await signIn(exporter);
    const requested = await exporterClient.trpc.account.requestExport.mutate();
    // an avatar uploaded
    const painter = await makeUser(db);
    const avatar = await (await signIn(painter)).fetch('/avatar', { method: 'POST', body: new Uint8Array(await jpegWithExif(64, 64)), headers: { 'content-type': 'image/jpeg' } });
    expect(avatar.status).toBe(202);

    // every job reached Redis, and then Redis forgot them all
    const postFilesJob = `delete-post-files-${deleted.id}`;
    const exportJob = `data-export-${requested.id}`;
    expect(await app.deps.queues.maintenance.getJobState(postFilesJob)).toBe('waiting');
    expect(await app.deps.queues.exports.getJobState(exportJob)).toBe('waiting');
    await forgetEverything();
    expect(await app.deps.queues.maintenance.getJobState(postFilesJob)).toBe('unknown');
    expect(await app.deps.queues.exports.getJobState(exportJob)).toBe('unknown');
    expect(await app.deps.queues.mail.getJobCounts('waiting')).toEqual({ waiting: 0 });
    // nothing happened: the files are all there
    for (const key of [...Object.values(deleted.keys), ...Object.values(leaversPost.keys)]) expect(await storage.exists(key!), key).toBe(true);

    const relayed = await relayOutbox(app.deps, 0);
    expect(relayed.queued).toBeGreaterThanOrEqual(5);
    await runWorkersThrough();

    const mails = await app.outbox();
    expect(mails.filter((m) => m.to === forgetful.email)).toHaveLength(1);
    for (const key of Object.values(deleted.keys)) expect(await storage.exists(key!), key).toBe(false);
    for (const key of Object.values(leaversPost.keys)) expect(await storage.exists(key!), key).toBe(false);
    expect(await db.selectFrom('storage_deletions').select('storage_key').execute()).toEqual([]);
    const [ready] = await exporterClient.trpc.account.exports.query();
    expect(ready).toMatchObject({ id: requested.id, status: 'ready' });
    expect(mails.filter((m) => m.to === exporter.email && m.subject.includes('ready to download'))).toHaveLength(1);
    const profile = await db.selectFrom('profiles').select(['avatar_url', 'avatar_pending_id']).where('id', '=', painter.id).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ avatar_url: expect.any(String), avatar_pending_id: null });

    // every row ran through: a later sweep queues nothing again
    const pending = await db.selectFrom('outbox').select('job_id').where('done_at', 'is', null).execute();
    expect(pending).toEqual([]);
    expect((await relayOutbox(app.deps, 0)).queued).toBe(0);
  });

  it('a receipt is never lost between the payment’s commit and the queue', async () => {
    const { db } = app.deps;
    const creator = await makeUser(db, { isCreator: true });
    const tier = await db
      .insertInto('subscription_tiers')
      .values({ creator_id: creator.id, name: 'Gold', price_cents: 40_00, payment_interval: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fan = await makeUser(db);
    const user: SessionUser = {
      id: fan.id, email: fan.email, role: 'user', emailVerified: true, username: fan.username, displayName: fan.username,
      avatarUrl: null, isCreator: false, isPremium: false, isVerified: false,
    };
    // Redis unreachable for the queue at the commit: every add throws
    const unreachable = { ...app.deps.queues, add: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) };
    const result = await subscribe({ ...app.deps, queues: unreachable }, user, { tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    expect(result).toMatchObject({ kind: 'subscribed' });
    expect(await app.deps.queues.mail.getJobCounts('waiting')).toEqual({ waiting: 0 });

    await relayOutbox(app.deps, 0);
    await runWorkersThrough(['mail']);
    const receipts = (await app.outbox()).filter((m) => m.to === fan.email && m.subject.includes('R40.00'));
    expect(receipts).toHaveLength(1);
  });
});
