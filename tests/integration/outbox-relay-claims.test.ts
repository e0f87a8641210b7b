import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import type { Logger } from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOutbox, addManyToOutbox, relayOutbox, type OutboxEntry, type RelayResult } from '../../core/outbox/outbox';
import { createQueues, type Queues } from '../../core/queues/queues';
import { createRedis } from '../../core/redis';
import { createTestDb, type TestDatabase } from '../helpers/test-db';
import { waitFor } from '../helpers/tus';

/**
 * Issue 44 item 3.1: every worker runs the outbox relay, so relays run at once. Here three of them
 * (each with its own Redis connection, as three worker processes have) sweep the same rows at the
 * same moment, twice: a row is handled by one of them per window, so a job Redis lost is queued
 * once, a failed job is retried once per window and its row counts each retry once, and a row
 * whose handling throws is logged while the others are handled.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WINDOW_MS = 60_000;

let t: TestDatabase;
const prefix = `outbox-claims-${randomUUID()}`;
const connections = [0, 1, 2].map(() => createRedis(REDIS_URL, { forBullmq: true }));
let relays: Queues[] = [];

beforeAll(async () => {
  t = await createTestDb();
  relays = connections.map((connection) => createQueues(connection, prefix));
});
afterAll(async () => {
  await relays[0]?.maintenance.obliterate({ force: true });
  await relays[0]?.mail.obliterate({ force: true });
  for (const queues of relays) await queues.close();
  for (const connection of connections) connection.disconnect();
  await t?.destroy();
});

/** A logger that keeps what the relays logged as errors. */
function recordingLog() {
  const errors: { jobId?: string; msg: string }[] = [];
  const log = {
    warn: () => {},
    error: (obj: { jobId?: string }, msg: string) => errors.push({ jobId: obj.jobId, msg }),
  } as unknown as Pick<Logger, 'warn' | 'error'>;
  return { log, errors };
}

/** The three relays at once, each through its own connection. */
async function threeRelaysAtOnce(log: Pick<Logger, 'warn' | 'error'>): Promise<RelayResult[]> {
  return Promise.all(relays.map((queues) => relayOutbox({ db: t.db, queues, log }, WINDOW_MS)));
}

const total = (results: RelayResult[], key: keyof RelayResult) => results.reduce((sum, r) => sum + r[key], 0);
const rowOf = (jobId: string) =>
  t.db.selectFrom('outbox').select(['relays', 'failed_at', 'done_at', 'last_error']).where('job_id', '=', jobId).executeTakeFirstOrThrow();

describe('relays running at once', () => {
  it('queue each lost job once, retry each failed job once per window, and carry on past a row that throws', async () => {
    const queues = relays[0]!;
    // a row whose handling throws (BullMQ refuses its options), the oldest: every sweep meets it first
    const throwing = { queue: 'mail', name: 'billing-receipt', data: { paymentId: randomUUID() }, jobId: `billing-receipt-${randomUUID()}`, options: { priority: 3_000_000 } } as const;
    // jobs Redis never had (down at the commit, or lost since)
    const lost = Array.from({ length: 4 }, () => {
      const paymentId = randomUUID();
      return { queue: 'mail', name: 'billing-receipt', data: { paymentId }, jobId: `billing-receipt-${paymentId}` } as const;
    });
    // jobs whose attempts ran out
    const failing = Array.from(
      { length: 3 },
      () => ({ queue: 'maintenance', name: 'delete-user-files', data: { batch: randomUUID() }, jobId: `delete-user-files-${randomUUID()}`, options: { attempts: 1 } }) as const,
    );
    await t.db.transaction().execute(async (trx) => {
      await addManyToOutbox(trx, [throwing] as OutboxEntry<'mail', 'billing-receipt'>[]);
      await addManyToOutbox(trx, lost as unknown as OutboxEntry<'mail', 'billing-receipt'>[]);
      await addManyToOutbox(trx, failing as unknown as OutboxEntry<'maintenance', 'delete-user-files'>[]);
    });
    await t.db.updateTable('outbox').set({ available_at: sql<Date>`now() - interval '1 hour'` }).where('job_id', '=', throwing.jobId).execute();

    const runs = new Map<string, number>();
    const worker = new Worker(
      'maintenance',
      async (job) => {
        runs.set(job.id!, (runs.get(job.id!) ?? 0) + 1);
        throw new Error('storage unavailable');
      },
      { connection: createRedis(REDIS_URL, { forBullmq: true }), prefix, concurrency: 3 },
    );
    const allFailed = (times: number) =>
      waitFor(
        async () => {
          for (const f of failing) if (runs.get(f.jobId) !== times || (await queues.maintenance.getJobState(f.jobId)) !== 'failed') return false;
          return true;
        },
        15_000,
        `the failing jobs to fail (run ${times})`,
      );
    try {
      await dispatchOutbox({ queues, log: recordingLog().log }, failing);
      await allFailed(1);

      // the first window: three relays sweep the same rows at once
      const first = recordingLog();
      const sweep1 = await threeRelaysAtOnce(first.log);
      expect(total(sweep1, 'queued')).toBe(lost.length);
      expect(total(sweep1, 'retried')).toBe(failing.length);
      expect(total(sweep1, 'errors')).toBe(1);
      for (const l of lost) {
        expect(await queues.mail.getJobState(l.jobId), l.jobId).toBe('waiting');
        expect((await rowOf(l.jobId)).relays, l.jobId).toBe(1);
      }
      await allFailed(2);
      for (const f of failing) expect((await rowOf(f.jobId)).relays, f.jobId).toBe(1);
      // the row that threw: logged once, its error kept, still pending (not counted as a relay)
      expect(first.errors).toEqual([{ jobId: throwing.jobId, msg: expect.stringContaining('could not handle a row') }]);
      expect(await rowOf(throwing.jobId)).toMatchObject({ relays: 0, failed_at: null, done_at: null, last_error: expect.stringContaining('Priority') });

      // within the window, more sweeps leave every row alone
      const again = await threeRelaysAtOnce(recordingLog().log);
      expect(total(again, 'queued') + total(again, 'retried') + total(again, 'errors')).toBe(0);

      // the next window (its time made to pass): each failed job is retried once more, counted once
      await t.db.updateTable('outbox').set({ relayed_at: sql<Date>`now() - interval '1 day'` }).where('done_at', 'is', null).execute();
      const sweep2 = await threeRelaysAtOnce(recordingLog().log);
      expect(total(sweep2, 'retried')).toBe(failing.length);
      expect(total(sweep2, 'queued')).toBe(0);
      expect(total(sweep2, 'errors')).toBe(1);
      await allFailed(3);
      for (const f of failing) expect((await rowOf(f.jobId)).relays, f.jobId).toBe(2);
      for (const l of lost) expect((await rowOf(l.jobId)).relays, l.jobId).toBe(1);
    } finally {
      await worker.close();
    }
  });
});
