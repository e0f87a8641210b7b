import type { JobsOptions } from 'bullmq';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { JobData, JobName, QueueName } from '../../common/jobs';
import { isDependencyUnavailable } from '../dependency-errors';
import type { DB } from '../db/kysely';
import type { Queues } from '../queues/queues';

/**
 * The outbox (docs/operations.md): nothing in Redis is the only copy of work that must happen.
 * Code that needs a job writes an outbox row in the same transaction as the change that needs it
 * (`addToOutbox`), and after the commit hands the entries to `dispatchOutbox`, which queues them
 * at once when Redis answers. Whatever did not reach Redis, or that Redis later lost, or whose
 * job failed, is queued again by the relay (`relayOutbox`, every worker's keeper) until the worker
 * that runs the job marks the row done (`markOutboxDone`, worker/workers.ts). Jobs are idempotent
 * and keyed by `jobId`, so a second add or run changes nothing.
 */

/**
 * What a row may carry of BullMQ's options; the delay comes from `delayMs` (the row's available_at).
 * `lifo`: a chain's next step that must jump its queue (the fan-out's next batch), relayed the same way.
 */
export type OutboxJobOptions = Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail' | 'priority' | 'lifo'>;

export interface OutboxEntry<Q extends QueueName, N extends JobName<Q>> {
  queue: Q;
  name: N;
  data: JobData<Q, N>;
  jobId: string;
  options?: OutboxJobOptions;
  /** run no sooner than this long after the commit */
  delayMs?: number;
}

/** An entry of any queue and job, as written (what `dispatchOutbox` takes). */
export type QueuedEntry = { queue: QueueName; name: string; data: unknown; jobId: string; options?: OutboxJobOptions; delayMs?: number };

/**
 * Writes the row in `trx` (the transaction of the change that needs the job). A row with this
 * jobId already there is kept as it is: the job is the same job. Returns the entry, for
 * `dispatchOutbox` after the commit.
 */
export async function addToOutbox<Q extends QueueName, N extends JobName<Q>>(trx: DB, entry: OutboxEntry<Q, N>): Promise<QueuedEntry> {
  await addManyToOutbox(trx, [entry]);
  return entry;
}

/**
 * `addToOutbox` for many entries in one statement (a batch's deliveries): same rows, same rule
 * for a jobId already there. Returns the entries, for `dispatchOutbox` after the commit.
 */
export async function addManyToOutbox<Q extends QueueName, N extends JobName<Q>>(trx: DB, entries: OutboxEntry<Q, N>[]): Promise<QueuedEntry[]> {
  if (entries.length === 0) return [];
  await trx
    .insertInto('outbox')
    .values(
      entries.map((entry) => ({
        queue: entry.queue,
        name: entry.name,
        job_id: entry.jobId,
        data: JSON.stringify(entry.data),
        options: JSON.stringify(entry.options ?? {}),
        available_at: sql<Date>`now() + ${`${entry.delayMs ?? 0} milliseconds`}::interval`,
      })),
    )
    .onConflict((oc) => oc.column('job_id').doNothing())
    .execute();
  return entries;
}

/**
 * Work that goes with no other write (a reset link asked for, a sign-in's notice): the row on its
 * own, then queued at once. Redis down: the row stays and the relay queues it.
 */
export async function queueThroughOutbox<Q extends QueueName, N extends JobName<Q>>(
  deps: { db: DB; queues: Pick<Queues, 'add'>; log: Pick<Logger, 'warn'> },
  entry: OutboxEntry<Q, N>,
): Promise<void> {
  await dispatchOutbox(deps, [await addToOutbox(deps.db, entry)]);
}

/**
 * After the commit: queues each entry now. A failure (Redis down) is only logged: the row stays,
 * and the relay queues it within one sweep of Redis answering again.
 */
export async function dispatchOutbox(deps: { queues: Pick<Queues, 'add'>; log: Pick<Logger, 'warn'> }, entries: readonly QueuedEntry[]): Promise<void> {
  await Promise.all(
    entries.map(async (e) => {
      try {
        await deps.queues.add(e.queue, e.name as never, e.data as never, { ...e.options, jobId: e.jobId, ...(e.delayMs ? { delay: e.delayMs } : {}) });
      } catch (err) {
        deps.log.warn({ err, queue: e.queue, job: e.name, jobId: e.jobId }, 'job not queued now: the outbox relay will queue it');
      }
    }),
  );
}

/** The worker ran the job through: its row is done (no row: a job that needs none, e.g. a schedule). */
export async function markOutboxDone(db: DB, jobId: string): Promise<void> {
  await db.updateTable('outbox').set({ done_at: new Date() }).where('job_id', '=', jobId).where('done_at', 'is', null).execute();
}

/** A failed job is handed back this many times (each with its own attempts) before its row fails for good. */
export const OUTBOX_MAX_RELAYS = 10;
/** Rows looked at per sweep, oldest first; the rest wait for the next sweep. */
const RELAY_BATCH = 500;

export interface RelayResult {
  queued: number;
  retried: number;
  done: number;
  failed: number;
  /** rows whose handling threw (logged; looked at again after the stale time, like any row) */
  errors: number;
}

type ClaimedRow = { id: string; queue: string; name: string; job_id: string; data: unknown; options: unknown; relays: number; available_at: Date };

/**
 * Takes the rows this sweep handles, in one statement (its own short transaction): every pending
 * row that is due and was not looked at for `staleMs` (doubling with each relay), oldest first,
 * has `relayed_at` stamped now and is returned. Rows another sweep is claiming at that moment are
 * skipped (FOR UPDATE SKIP LOCKED), and once stamped a row is not due for any sweep until the
 * stale time has passed again: a row is handled by one sweep per window, however many workers
 * run the relay. No lock is held while Redis is asked about the jobs. (`staleMs` 0, as tests pass
 * it, makes every row due again at once: only sweeps claiming at the same moment are kept apart.)
 */
async function claimDueRows(db: DB, staleMs: number): Promise<ClaimedRow[]> {
  const due = db
    .selectFrom('outbox')
    .select('id')
    .where('done_at', 'is', null)
    .where('failed_at', 'is', null)
    .where('available_at', '<=', sql<Date>`now()`)
    .where((eb) =>
      eb.or([
        eb('relayed_at', 'is', null),
        eb('relayed_at', '<', sql<Date>`now() - ${staleMs} * power(2, least(relays, 8)) * interval '1 millisecond'`),
      ]),
    )
    .orderBy('available_at')
    .limit(RELAY_BATCH)
    .forUpdate()
    .skipLocked();
  const rows = await db
    .updateTable('outbox')
    .set({ relayed_at: sql<Date>`now()` })
    .where('id', 'in', due)
    .returning(['id', 'queue', 'name', 'job_id', 'data', 'options', 'relays', 'available_at'])
    .execute();
  return rows.sort((a, b) => a.available_at.getTime() - b.available_at.getTime());
}

/**
 * One sweep: the rows it claims (`claimDueRows`) have their job looked up by id. No job (Redis
 * lost it, or was down at the commit): queued again. Completed: the row is done. Failed: retried,
 * up to OUTBOX_MAX_RELAYS times, then the row fails for good (operators see it in /metrics
 * `outbox_rows{state="failed"}` and the job in Bull Board's failed list). Waiting, delayed or
 * active: alive, left alone. `relays` counts the adds and retries this sweep really made. Every
 * worker runs this sweep: the claim gives each row to one of them per window, and each row is
 * handled on its own (one that throws is logged and the sweep goes on).
 */
export async function relayOutbox(deps: { db: DB; queues: Queues; log: Pick<Logger, 'warn' | 'error'> }, staleMs: number): Promise<RelayResult> {
  const { db, log } = deps;
  const result: RelayResult = { queued: 0, retried: 0, done: 0, failed: 0, errors: 0 };
  for (const row of await claimDueRows(db, staleMs)) {
    try {
      await relayRow(deps, row, result);
    } catch (err) {
      // Redis (or PostgreSQL) gone mid-sweep is no row's fault: the rest waits for the next window
      if (isDependencyUnavailable(err)) {
        log.warn({ err }, 'outbox relay: sweep stopped, a service it needs is unavailable (the rows left are looked at again after the stale time)');
        break;
      }
      result.errors++;
      log.error({ err, queue: row.queue, job: row.name, jobId: row.job_id }, 'outbox relay: could not handle a row (looked at again after the stale time)');
      const message = err instanceof Error ? err.message : String(err);
      await db
        .updateTable('outbox')
        .set({ last_error: message })
        .where('id', '=', row.id)
        .execute()
        .catch(() => {});
    }
  }
  // done rows are kept a week (what ran, for an operator's question), then go
  await db.deleteFrom('outbox').where('done_at', '<', sql<Date>`now() - interval '7 days'`).execute();
  if (result.queued || result.retried || result.failed || result.errors) log.warn({ ...result }, 'outbox relay: jobs queued again, retried or given up');
  return result;
}

async function relayRow(deps: { db: DB; queues: Queues; log: Pick<Logger, 'error'> }, row: ClaimedRow, result: RelayResult): Promise<void> {
  const { db, queues, log } = deps;
  const queue = queues[row.queue as QueueName];
  if (!queue) {
    await db.updateTable('outbox').set({ failed_at: new Date(), last_error: `unknown queue ${row.queue}` }).where('id', '=', row.id).execute();
    result.failed++;
    return;
  }
  const state = await queue.getJobState(row.job_id);
  if (state === 'completed') {
    await db.updateTable('outbox').set({ done_at: new Date() }).where('id', '=', row.id).execute();
    result.done++;
  } else if (state === 'unknown') {
    // its worker may have finished it (marking the row done, then removing the job) since the claim
    const fresh = await db.selectFrom('outbox').select('done_at').where('id', '=', row.id).executeTakeFirst();
    if (fresh?.done_at) return;
    await queue.add(row.name, row.data, { ...(row.options as OutboxJobOptions), jobId: row.job_id });
    await db.updateTable('outbox').set({ relayed_at: new Date(), relays: sql<number>`relays + 1` }).where('id', '=', row.id).execute();
    result.queued++;
  } else if (state === 'failed') {
    const job = await queue.getJob(row.job_id);
    if (row.relays >= OUTBOX_MAX_RELAYS || !job) {
      await db.updateTable('outbox').set({ failed_at: new Date(), last_error: job?.failedReason ?? 'failed' }).where('id', '=', row.id).execute();
      log.error({ queue: row.queue, job: row.name, jobId: row.job_id, reason: job?.failedReason }, 'outbox: job failed for good');
      result.failed++;
    } else {
      await job.retry('failed');
      await db
        .updateTable('outbox')
        .set({ relayed_at: new Date(), relays: sql<number>`relays + 1`, last_error: job.failedReason ?? null })
        .where('id', '=', row.id)
        .execute();
      result.retried++;
    }
  }
  // waiting, delayed, active: alive; the claim stamped when it was looked at
}

/** For /metrics: rows waiting for their job, and rows given up. */
export async function outboxCounts(db: DB): Promise<{ pending: number; failed: number }> {
  const row = await db
    .selectFrom('outbox')
    .select([
      sql<string>`count(*) filter (where done_at is null and failed_at is null)`.as('pending'),
      sql<string>`count(*) filter (where failed_at is not null)`.as('failed'),
    ])
    .where('done_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), failed: Number(row.failed) };
}
