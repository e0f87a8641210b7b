import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDatabase } from '../../tests/helpers/test-db';
import { createQueues, type Queues } from '../queues/queues';
import { createRedis } from '../redis';
import { addToOutbox, dispatchOutbox, markOutboxDone, OUTBOX_MAX_RELAYS, relayOutbox } from './outbox';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' });

let t: TestDatabase;
let queues: Queues;
let prefix: string;
const connection = createRedis(REDIS_URL, { forBullmq: true });

beforeAll(async () => {
  t = await createTestDb();
  prefix = `outbox-test-${randomUUID()}`;
  queues = createQueues(connection, prefix);
});
afterAll(async () => {
  await Promise.all([queues.mail.obliterate({ force: true }), queues.maintenance.obliterate({ force: true })]);
  await queues.close();
  connection.disconnect();
  await t?.destroy();
});

const receipt = (paymentId = randomUUID()) =>
  ({ queue: 'mail', name: 'billing-receipt', data: { paymentId }, jobId: `billing-receipt-${paymentId}` }) as const;
const row = (jobId: string) => t.db.selectFrom('outbox').selectAll().where('job_id', '=', jobId).executeTakeFirstOrThrow();
const deps = () => ({ db: t.db, queues, log });

describe('the outbox', () => {
  it('a job written with its change but never queued (Redis away at the commit) is queued by the relay', async () => {
    const entry = receipt();
    await t.db.transaction().execute((trx) => addToOutbox(trx, entry));
    expect(await queues.mail.getJobState(entry.jobId)).toBe('unknown');

    const swept = await relayOutbox(deps(), 30_000);
    expect(swept.queued).toBeGreaterThanOrEqual(1);
    expect(await queues.mail.getJobState(entry.jobId)).toBe('waiting');
    expect((await queues.mail.getJob(entry.jobId))?.data).toEqual(entry.data);
  });

  it('a rolled-back change leaves no job behind', async () => {
    const entry = receipt();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await addToOutbox(trx, entry);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await relayOutbox(deps(), 30_000);
    expect(await queues.mail.getJobState(entry.jobId)).toBe('unknown');
    expect(await t.db.selectFrom('outbox').select('id').where('job_id', '=', entry.jobId).executeTakeFirst()).toBeUndefined();
  });

  it('a job Redis lost is queued again; a job done is not', async () => {
    const lost = receipt();
    const done = receipt();
    const written = await t.db.transaction().execute(async (trx) => [await addToOutbox(trx, lost), await addToOutbox(trx, done)]);
    await dispatchOutbox(deps(), written);
    expect(await queues.mail.getJobState(lost.jobId)).toBe('waiting');
    // a sweep finds both alive and leaves them
    expect(await relayOutbox(deps(), 30_000)).toMatchObject({ queued: 0, retried: 0 });

    // the worker ran `done` through; then Redis forgot everything
    await markOutboxDone(t.db, done.jobId);
    await queues.mail.obliterate({ force: true });
    expect(await queues.mail.getJobState(lost.jobId)).toBe('unknown');

    // a sweep sooner than the stale time leaves a row it just looked at alone
    await relayOutbox(deps(), 60_000);
    expect(await queues.mail.getJobState(lost.jobId)).toBe('unknown');
    await t.db.updateTable('outbox').set({ relayed_at: new Date(Date.now() - 120_000) }).where('job_id', '=', lost.jobId).execute();
    await relayOutbox(deps(), 60_000);
    expect(await queues.mail.getJobState(lost.jobId)).toBe('waiting');
    expect(await queues.mail.getJobState(done.jobId)).toBe('unknown');
    expect((await row(lost.jobId)).relays).toBe(1);
  });

  it('a job whose attempts ran out is handed back, and given up after OUTBOX_MAX_RELAYS for operators to see', async () => {
    const entry = { queue: 'maintenance', name: 'delete-user-files', data: { batch: randomUUID() }, jobId: `delete-user-files-${randomUUID()}`, options: { attempts: 1 } } as const;
    await t.db.transaction().execute((trx) => addToOutbox(trx, entry));
    let runs = 0;
    const worker = new Worker(
      'maintenance',
      async (job) => {
        if (job.id === entry.jobId) runs++;
        throw new Error('storage unavailable');
      },
      { connection: createRedis(REDIS_URL, { forBullmq: true }), prefix, concurrency: 1 },
    );
    try {
      const failedOnce = () =>
        new Promise<void>((resolve) => {
          const onFailed = (job: { id?: string } | undefined) => {
            if (job?.id !== entry.jobId) return;
            worker.off('failed', onFailed);
            resolve();
          };
          worker.on('failed', onFailed);
        });
      let failed = failedOnce();
      await relayOutbox(deps(), 0);
      await failed;
      for (let i = 1; i <= OUTBOX_MAX_RELAYS; i++) {
        expect(await queues.maintenance.getJobState(entry.jobId)).toBe('failed');
        failed = failedOnce();
        const swept = await relayOutbox(deps(), 0);
        if (i < OUTBOX_MAX_RELAYS) {
          expect(swept.retried).toBe(1);
          await failed;
        } else {
          expect(swept.failed).toBe(1);
        }
      }
      expect(runs).toBe(OUTBOX_MAX_RELAYS);
      const given = await row(entry.jobId);
      expect(given.failed_at).not.toBeNull();
      expect(given.last_error).toBe('storage unavailable');
      // given up: later sweeps leave it alone
      expect((await relayOutbox(deps(), 0)).retried).toBe(0);
    } finally {
      await worker.close();
    }
  });
});
