import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { noLiveRun } from './runs.queries';

/** Where a page of the sweep ended: the last post's updated_at, to the microsecond, and id. */
export interface IdleCursor {
  changedAt: string;
  id: string;
}

/**
 * Posts 'processing' with no change for `idleMs` and no live run (runs.queries.ts: no heartbeat
 * within `leaseMs`), whose job may be lost, oldest change first,
 * a page at a time after `after` (keyset on updated_at, id, over posts_processing_idx): the
 * lost-job sweep reads them all, however many are legitimately waiting in a long queue.
 */
export function findIdleProcessingPosts(db: DB, idleMs: number, leaseMs: number, limit: number, after?: IdleCursor) {
  return db
    .selectFrom('posts')
    .select(['id', 'creator_id', 'media_kind', 'optimistic_id', sql<string>`updated_at::text`.as('changed_at')])
    .where('status', '=', 'processing')
    .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${idleMs / 1000})`)
    // a live run holds it (its heartbeat is fresh): its job may be gone from Redis, the work is not
    .where(noLiveRun(leaseMs))
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(updated_at, id) > (${after!.changedAt}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('updated_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
