import type { DB } from '../../core/db/kysely';
import { queueLadderBackfill } from './ladders.queries';

const BATCH = 500;

/** The backfill's whole run: every finished post with a video and no ladder gets its 'build-ladder' outbox row. Returns how many were written. */
export async function queueAllLadderBackfill(db: DB): Promise<number> {
  let after: string | null = null;
  let queued = 0;
  for (;;) {
    const { entries, last } = await queueLadderBackfill(db, after, BATCH);
    queued += entries.length;
    if (last === null || entries.length < BATCH) return queued;
    after = last;
  }
}
