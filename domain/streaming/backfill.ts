import type { DB } from '../../core/db/kysely';
import type { QueuedEntry } from '../../core/outbox/outbox';
import { queueAttachmentLadderBackfill } from '../messaging/attachment-ladders';
import { queueLadderBackfill } from './ladders.queries';

const BATCH = 500;

type Batch = (db: DB, after: string | null, limit: number) => Promise<{ entries: QueuedEntry[]; last: string | null }>;

/**
 * The backfill's whole run: every finished post with a video and no ladder gets its
 * 'build-ladder' outbox row, and every ready chat video with no ladder its
 * 'build-attachment-ladder' row, a batch per transaction, each batch handed to `dispatch` after
 * its commit (queued at once; what Redis does not take, the relay queues). Returns how many posts
 * and chat videos it found.
 */
export async function queueAllLadderBackfill(
  db: DB,
  dispatch: (entries: QueuedEntry[]) => Promise<void> = async () => {},
): Promise<{ posts: number; chatVideos: number }> {
  const posts = await queueInBatches(db, queueLadderBackfill, dispatch);
  const chatVideos = await queueInBatches(db, queueAttachmentLadderBackfill, dispatch);
  return { posts, chatVideos };
}

async function queueInBatches(db: DB, batch: Batch, dispatch: (entries: QueuedEntry[]) => Promise<void>): Promise<number> {
  let after: string | null = null;
  let queued = 0;
  for (;;) {
    const { entries, last } = await batch(db, after, BATCH);
    await dispatch(entries);
    queued += entries.length;
    if (last === null || entries.length < BATCH) return queued;
    after = last;
  }
}
