import { traceLeakJobId } from '../../common/jobs';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { TraceVerdict } from './verdict';

/**
 * Leak traces (leak_traces, docs/media.md): asked for by the server, answered by the worker's
 * 'trace-leak' job. Every trace stays as the log of who asked, about which post, with which file,
 * and what it answered.
 */

/** The trace's row and its job's outbox row, in one transaction. */
export async function insertTrace(
  db: DB,
  row: { id: string; postId: string; position: number; requestedBy: string; fileSha256: string; fileBytes: number; leakKey: string },
): Promise<QueuedEntry> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('leak_traces')
      .values({ id: row.id, post_id: row.postId, position: row.position, requested_by: row.requestedBy, file_sha256: row.fileSha256, file_bytes: row.fileBytes, leak_key: row.leakKey })
      .execute();
    return addToOutbox(trx, { queue: 'forensics', name: 'trace-leak', data: { traceId: row.id }, jobId: traceLeakJobId(row.id) });
  });
}

export function findTrace(db: DB, traceId: string) {
  return db
    .selectFrom('leak_traces as t')
    .innerJoin('posts as p', 'p.id', 't.post_id')
    .leftJoin('media_files as m', (j) => j.onRef('m.post_id', '=', 't.post_id').onRef('m.position', '=', 't.position').on('m.variant', '=', 'original'))
    .select(['t.id', 't.post_id', 't.position', 't.status', 't.leak_key', 'p.is_premium', 'p.unlock_price_cents', 'm.content_type'])
    .where('t.id', '=', traceId)
    .executeTakeFirst();
}

export async function markTraceRunning(db: DB, traceId: string): Promise<void> {
  await db.updateTable('leak_traces').set({ status: 'running' }).where('id', '=', traceId).where('status', 'in', ['queued', 'running']).execute();
}

/** The answer, once: a trace already done keeps its first answer. */
export async function finishTrace(db: DB, traceId: string, verdict: TraceVerdict, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('leak_traces')
    .set({
      status: 'done',
      verdict: JSON.stringify(verdict),
      confidence: verdict.kind === 'identified' ? verdict.confidence : null,
      identified_user_id: verdict.kind === 'identified' ? verdict.userId : null,
      finished_at: at,
      leak_key: null,
    })
    .where('id', '=', traceId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function failTrace(db: DB, traceId: string, at: Date): Promise<void> {
  await db.updateTable('leak_traces').set({ status: 'failed', finished_at: at, leak_key: null }).where('id', '=', traceId).where('status', 'in', ['queued', 'running']).execute();
}
