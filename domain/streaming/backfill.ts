import type { DB } from '../../core/db/kysely';
import type { QueuedEntry } from '../../core/outbox/outbox';
import { queueLadderBackfill } from './ladders.queries';

const BATCH = 500;

/**
 * The backfill's whole run: every finished post with a video and no ladder gets its
 * 'build-ladder' outbox row, a batch per transaction, each batch handed to `dispatch` after its
 * commit (queued at once; what Redis does not take, the relay queues). Returns how many posts it
 * found.
 */
export async function queueAllLadderBackfill(db: DB, dispatch: (entries: QueuedEntry[]) => Promise<void> = async () => {}): Promise<number> {
  let after: string | null = null;
  let queued = 0;
  for (;;) {
    const { entries, last } = await queueLadderBackfill(db, after, BATCH);
    await dispatch(entries);
    queued += entries.length;
    if (last === null || entries.length < BATCH) return queued;
    after = last;
  }
}
