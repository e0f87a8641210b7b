import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { mayBeMessagedBy } from '../access/messaging.queries';
import { audienceSql, nextMassBatch } from './mass-messages';

/** What the outbox says of the row keyed by a message's cursor (the batch it waits for). */
export type NextBatchRow = 'missing' | 'pending' | 'done' | 'failed';

export interface StalledMassMessage {
  id: string;
  cursor: string | null;
  next: NextBatchRow;
}

/**
 * Messages to many still queued or sending whose last batch committed more than `idleMs` ago
 * (mass_messages_unfinished_idx), oldest first, each with the state of the outbox row of the batch
 * it waits for: every batch writes that row with its cursor, so while the chain is alive it is
 * pending and the relay keeps its job in Redis.
 */
export async function findStalledMassMessages(db: DB, idleMs: number, limit: number): Promise<StalledMassMessage[]> {
  const stalled = await db
    .selectFrom('mass_messages')
    .select(['id', 'cursor'])
    .where('status', 'in', ['queued', 'sending'])
    .where(sql<boolean>`progressed_at < now() - make_interval(secs => ${idleMs / 1000})`)
    .orderBy('progressed_at')
    .limit(limit)
    .execute();
  if (stalled.length === 0) return [];
  const jobIds = stalled.map((m) => nextMassBatch(m.id, m.cursor).jobId);
  const rows = await db.selectFrom('outbox').select(['job_id', 'done_at', 'failed_at']).where('job_id', 'in', jobIds).execute();
  const byJob = new Map(rows.map((r) => [r.job_id, r]));
  return stalled.map((m, i) => {
    const row = byJob.get(jobIds[i]!);
    const next: NextBatchRow = !row ? 'missing' : row.failed_at ? 'failed' : row.done_at ? 'done' : 'pending';
    return { id: m.id, cursor: m.cursor, next };
  });
}

/**
 * The message to many cannot go on (the row of its next batch failed for good): 'failed', with the
 * audience's size now (the copies delivered + those after the cursor the creator may still
 * message) for the creator's 'Stopped: delivered to N of M'. Only while its cursor is still
 * `cursor` and it is unfinished: a batch that committed meanwhile (an operator's retry) wins.
 * Returns false when it changed nothing.
 */
export async function stopMassMessage(db: DB, id: string, cursor: string | null): Promise<boolean> {
  const mass = await db.selectFrom('mass_messages').select(['creator_id', 'audience', 'tier_id']).where('id', '=', id).executeTakeFirst();
  if (!mass) return false;
  const result = await sql`
    update mass_messages set status = 'failed', stopped_total =
      (select count(*) from messages m where m.mass_message_id = ${id}::uuid)
      + (select count(*) from (${audienceSql(mass.creator_id, mass.audience, mass.tier_id)}) r
         where ${cursor === null ? sql`true` : sql`r.id > ${cursor}::uuid`} and ${mayBeMessagedBy(mass.creator_id, 'r.id')})
    where id = ${id}::uuid and status in ('queued', 'sending') and cursor is not distinct from ${cursor}::uuid`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
