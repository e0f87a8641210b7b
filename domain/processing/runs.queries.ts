import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * Which media run holds an item while it is 'processing' (a post, or a chat attachment): the
 * run's id in `processing_run` and its heartbeat in `processing_heartbeat_at`, renewed while it
 * works. A second run of the same item (a job queued again by the lost-job sweep, or by BullMQ's
 * stall check after a Redis outage, while the first run still works) holds off until the item is
 * finished or the heartbeat is older than the lease (its worker died); the sweep leaves items with
 * a fresh heartbeat alone (lost-jobs.queries.ts). Kept in PostgreSQL, so a Redis that forgets or
 * stalls cannot make two live runs of one item.
 */
export type RunTable = 'posts' | 'message_attachments';

export type ClaimOutcome = 'claimed' | 'held' | 'done';

const seconds = (ms: number) => ms / 1000;

/**
 * `runId` takes the item when it is 'processing' and no other run holds it with a heartbeat
 * fresher than `leaseMs`. 'held': another live run has it; 'done': it is not 'processing' (or
 * gone). `leftovers`: the files a dead run it takes over from had started writing (never a
 * published file: an item whose run published it is no longer 'processing').
 */
export async function claimRun(db: DB, table: RunTable, id: string, runId: string, leaseMs: number): Promise<{ outcome: ClaimOutcome; leftovers: string[] }> {
  return db.transaction().execute(async (trx) => {
    const current = await sql<{ status: string; processing_run: string | null; processing_keys: string[]; live: boolean }>`
      select status, processing_run, processing_keys,
             not ${noLiveRun(leaseMs)} as live
      from ${sql.table(table)} where id = ${id} for update`.execute(trx);
    const row = current.rows[0];
    if (!row || row.status !== 'processing') return { outcome: 'done' as const, leftovers: [] };
    if (row.processing_run !== null && row.processing_run !== runId && row.live) return { outcome: 'held' as const, leftovers: [] };
    await sql`update ${sql.table(table)} set processing_run = ${runId}, processing_heartbeat_at = now(), processing_keys = '{}'
      where id = ${id}`.execute(trx);
    return { outcome: 'claimed' as const, leftovers: row.processing_run !== runId ? row.processing_keys : [] };
  });
}

/** Notes a file the run is about to write (nothing when another run took the item over). */
export async function noteRunFile(db: DB, table: RunTable, id: string, runId: string, key: string): Promise<void> {
  await sql`update ${sql.table(table)} set processing_keys = array_append(processing_keys, ${key})
    where id = ${id} and processing_run = ${runId}`.execute(db);
}

/** The run is alive: its heartbeat is renewed (nothing when another run took the item over). */
export async function renewRun(db: DB, table: RunTable, id: string, runId: string): Promise<void> {
  await sql`update ${sql.table(table)} set processing_heartbeat_at = now() where id = ${id} and processing_run = ${runId}`.execute(db);
}

/** The run is over (done, failed, handed back): the item is no longer held by it. */
export async function releaseRun(db: DB, table: RunTable, id: string, runId: string): Promise<void> {
  await sql`update ${sql.table(table)} set processing_run = null, processing_heartbeat_at = null, processing_keys = '{}'
    where id = ${id} and processing_run = ${runId}`.execute(db);
}

/** SQL: the item has no live run (no heartbeat, or one older than `leaseMs`). For the lost-job sweeps. */
export function noLiveRun(leaseMs: number) {
  return sql<boolean>`(processing_heartbeat_at is null or processing_heartbeat_at < now() - make_interval(secs => ${seconds(leaseMs)}))`;
}
