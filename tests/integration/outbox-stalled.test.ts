import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { relayOutbox } from '../../core/outbox/outbox';
import { createRedis } from '../../core/redis';
import { startWorkers } from '../../worker/workers';
import { makePost, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

/**
 * Issue 24 item 3: two crashes do not end a job for good. BullMQ fails a job whose workers died
 * holding it twice; the outbox relay hands it back. A server of its own (no workers, a fresh Redis
 * prefix), so no other test's jobs wait in the queue the dying workers take from.
 */
const app = useTestServer({ workerQueues: [] });

describe('a job BullMQ failed as stalled', () => {
  it('is run again by the relay after two worker deaths', async () => {
    const { db, storage } = app.deps;
    const leaver = await makeUser(db, { isCreator: true });
    const post = await makePost(db, storage, { creatorId: leaver.id, text: 'mine' });
    await (await clientAs(app, leaver.id)).trpc.account.deleteAllData.mutate({ password: leaver.password });
    // this deletion's row: the newest (an earlier test's deletion may have left one not done)
    const row = await db.selectFrom('outbox').select(['job_id']).where('name', '=', 'delete-user-files').orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();

    // two workers take the job and die holding it (their lock lapses; nothing finishes it); after
    // the second stall BullMQ (6) marks it to fail, and the next worker to fetch it fails it as
    // stalled without running it: nothing in BullMQ runs it again
    const opts = { prefix: app.deps.config.REDIS_PREFIX, lockDuration: 1_000, stalledInterval: 300, maxStalledCount: 1 };
    const dead: Worker[] = [];
    for (let death = 1; death <= 2; death++) {
      const connection = createRedis(app.deps.config.REDIS_URL, { forBullmq: true });
      await new Promise<void>((resolve) => {
        const dying = new Worker(
          'maintenance',
          async (job) => {
            // jobs the earlier tests left waiting pass through this worker untouched
            if (job.id !== row.job_id) return;
            resolve();
            // a worker killed mid-job: its lock is no longer renewed, and it never returns
            connection.disconnect();
            await new Promise(() => {});
          },
          { ...opts, connection },
        );
        dying.on('error', () => {});
        dead.push(dying);
      });
    }
    // a live worker's stalled check finds the second death
    const checker = new Worker('maintenance', null, { ...opts, connection: createRedis(app.deps.config.REDIS_URL, { forBullmq: true }), autorun: false });
    try {
      const deadline = Date.now() + 20_000;
      while ((await app.deps.queues.maintenance.getJob(row.job_id))?.stalledCounter !== 2) {
        if (Date.now() > deadline) throw new Error('the second death was not found');
        await (checker as unknown as { moveStalledJobsToWait(): Promise<unknown> }).moveStalledJobsToWait();
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await checker.close();
      for (const worker of dead) void worker.close(true).catch(() => {});
    }
    const workers = await startWorkers(app.deps, ['maintenance']);
    try {
      await waitFor(async () => (await app.deps.queues.maintenance.getJobState(row.job_id)) === 'failed', 15_000, 'failed as stalled');
      expect((await app.deps.queues.maintenance.getJob(row.job_id))?.failedReason).toMatch(/stalled/);
      for (const key of Object.values(post.keys)) expect(await storage.exists(key!), key).toBe(true);

      // the relay hands it back, and it runs through
      const swept = await relayOutbox(app.deps, 0);
      expect(swept.retried).toBeGreaterThanOrEqual(1);
      await app.drain('maintenance', 30_000);
    } finally {
      await workers.close();
    }
    for (const key of Object.values(post.keys)) expect(await storage.exists(key!), key).toBe(false);
    expect((await db.selectFrom('outbox').select('done_at').where('job_id', '=', row.job_id).executeTakeFirstOrThrow()).done_at).not.toBeNull();
  });
});
