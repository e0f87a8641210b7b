import { randomUUID } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import { sql } from 'kysely';
import type { QueueName } from '../../common/jobs';
import { relayOutbox } from '../../core/outbox/outbox';
import { createRedis } from '../../core/redis';
import { runJob } from '../../worker/workers';
import type { TestServer } from './test-server';

/**
 * Issue 44 item 2: work that continues itself (a message to many's batches, a post's fan-out, a
 * notification's pushes) must survive Redis forgetting between any two of its steps. These helpers
 * run such a chain one job at a time, as a worker would (worker/workers.ts runJob: the handler,
 * then its outbox row done), so a test can make Redis forget everything in between.
 */

/** Every key of the test server's prefix deleted: what a Redis restart without persistence leaves. */
export async function forgetEverything(app: TestServer): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await app.deps.redis.scan(cursor, 'MATCH', `${app.deps.config.REDIS_PREFIX}:*`, 'COUNT', 500);
    if (keys.length) await app.deps.redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export interface StepOptions {
  /** Redis forgets everything after each job (default true) */
  forget?: boolean;
  /** stop after this many jobs (to leave the rest of the chain to the test) */
  limit?: number;
}

/** A chain still going after this many jobs fails the test instead of hanging it. */
const RUNAWAY = 200;

export interface Step {
  queue: QueueName;
  name: string;
  jobId: string;
  /** the job threw (moved to failed, as a worker does): the relay hands its row back */
  failed?: boolean;
}

/**
 * Runs the jobs of `queues` one at a time until nothing is left: before each, the outbox relay
 * (with no wait: every row whose job is missing is queued again), then the next job in queue order
 * (a lifo job first) is taken like a worker takes it, run with runJob and completed. With `forget`,
 * Redis then forgets everything, so the next step exists only if an outbox row says so. Done when
 * no job is waiting and the outbox holds no pending row of these queues (or after `limit` jobs).
 * Returns the steps run.
 */
export async function stepThrough(app: TestServer, queues: readonly QueueName[], opts: StepOptions = {}): Promise<Step[]> {
  const { forget = true, limit } = opts;
  const connections = queues.map(() => createRedis(app.deps.config.REDIS_URL, { forBullmq: true }));
  const takers = queues.map((queue, i) => ({
    queue,
    worker: new Worker(queue, null, { connection: connections[i]!, prefix: app.deps.config.REDIS_PREFIX, autorun: false }),
  }));
  const steps: Step[] = [];
  // the longest a pending row may go without a job to take (a short delay, a relay's second look)
  let idleSince = Date.now();
  try {
    while (steps.length < RUNAWAY) {
      if (steps.length === limit) return steps;
      await relayOutbox(app.deps, 0);
      const token = randomUUID();
      let taken: { queue: QueueName; job: Job } | null = null;
      for (const { queue, worker } of takers) {
        const job = await worker.getNextJob(token, { block: false });
        if (job) {
          taken = { queue, job };
          break;
        }
      }
      if (!taken) {
        if (!(await hasPendingRows(app, queues))) return steps;
        if (Date.now() - idleSince > 10_000) throw new Error(`outbox rows stayed pending with no job to run after: ${steps.map((s) => s.name).join(', ')}`);
        // a row not due yet (a delayed push): look again
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      idleSince = Date.now();
      try {
        const result = await runJob(app.deps, taken.queue, taken.job, { token });
        await taken.job.moveToCompleted(result, token, false);
        steps.push({ queue: taken.queue, name: taken.job.name, jobId: taken.job.id! });
      } catch (error) {
        await taken.job.moveToFailed(error as Error, token, false);
        steps.push({ queue: taken.queue, name: taken.job.name, jobId: taken.job.id!, failed: true });
      }
      if (forget) await forgetEverything(app);
    }
    throw new Error(`the chain was still going after ${RUNAWAY} steps: ${steps.map((s) => s.name).join(', ')}`);
  } finally {
    await Promise.all(takers.map(({ worker }) => worker.close()));
    connections.forEach((c) => c.disconnect());
  }
}

async function hasPendingRows(app: TestServer, queues: readonly QueueName[]): Promise<boolean> {
  const row = await app.deps.db
    .selectFrom('outbox')
    .select(sql<string>`count(*)`.as('n'))
    .where('queue', 'in', [...queues])
    .where('done_at', 'is', null)
    .where('failed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n) > 0;
}
