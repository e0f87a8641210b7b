import { ladderJobId, type LadderJobs } from '../../common/jobs';
import type { LadderRendition, LadderThumbnails } from '../../common/ladder';
import type { DB } from '../../core/db/kysely';
import { addManyToOutbox, addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';

/**
 * The HLS ladders of posts' videos (video_ladders, docs/media.md): which files still need one,
 * recording one, and reading one for a viewer's playlist.
 */

export interface StoredLadder {
  renditions: LadderRendition[];
  thumbnails: LadderThumbnails | null;
}

/**
 * Ladders wait behind uploads on the `transcode` queue (BullMQ takes jobs without a priority
 * first): a new post is never held up by the backfill of a thousand old ones, and it plays as
 * its MP4 until its own ladder's turn.
 */
const LADDER_JOB_OPTIONS = { priority: 10 } as const;

/** The 'build-ladder' job of a post, as an outbox row in `trx` (the change that makes its video, or the backfill). */
export function queueLadder(trx: DB, postId: string): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'transcode',
    name: 'build-ladder',
    data: { postId } satisfies LadderJobs['build-ladder'],
    jobId: ladderJobId(postId),
    options: LADDER_JOB_OPTIONS,
  });
}

/** Whether any file of the post is a processed video (its MP4 is stored). */
export async function hasVideoFile(trx: DB, postId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('media_files')
    .select('id')
    .where('post_id', '=', postId)
    .where('variant', '=', 'original')
    .where('content_type', 'like', 'video/%')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The post's processed videos that have no ladder yet (the MP4 each is made from), of a finished post only. */
export function videosWithoutLadder(db: DB, postId: string) {
  return db
    .selectFrom('media_files as m')
    .innerJoin('posts as p', 'p.id', 'm.post_id')
    .leftJoin('video_ladders as l', (j) => j.onRef('l.post_id', '=', 'm.post_id').onRef('l.position', '=', 'm.position'))
    .select(['m.position', 'm.storage_key', 'p.is_premium', 'p.unlock_price_cents'])
    .where('m.post_id', '=', postId)
    .where('m.variant', '=', 'original')
    .where('m.content_type', 'like', 'video/%')
    .where('p.status', '<>', 'processing')
    .where('l.post_id', 'is', null)
    .orderBy('m.position')
    .execute();
}

/**
 * Records a ladder once every file of it is stored. False when it was there already (another
 * run finished first: the same keys, so nothing to delete) or the post is gone (its files are
 * the caller's to delete).
 */
export async function insertLadder(
  db: DB,
  row: { postId: string; position: number; ladder: StoredLadder; keys: string[] },
): Promise<'inserted' | 'exists' | 'post-gone'> {
  return db.transaction().execute(async (trx) => {
    const post = await trx.selectFrom('posts').select('id').where('id', '=', row.postId).forShare().executeTakeFirst();
    if (!post) return 'post-gone';
    const result = await trx
      .insertInto('video_ladders')
      .values({
        post_id: row.postId,
        position: row.position,
        renditions: JSON.stringify(row.ladder.renditions),
        thumbnails: row.ladder.thumbnails ? JSON.stringify(row.ladder.thumbnails) : null,
        storage_keys: row.keys,
      })
      .onConflict((oc) => oc.columns(['post_id', 'position']).doNothing())
      .executeTakeFirst();
    return result.numInsertedOrUpdatedRows !== undefined && result.numInsertedOrUpdatedRows > 0n ? 'inserted' : 'exists';
  });
}

export async function findLadder(db: DB, postId: string, position: number): Promise<StoredLadder | null> {
  const row = await db
    .selectFrom('video_ladders')
    .select(['renditions', 'thumbnails'])
    .where('post_id', '=', postId)
    .where('position', '=', position)
    .executeTakeFirst();
  return row ? { renditions: row.renditions, thumbnails: row.thumbnails } : null;
}

/** Every ladder object of a post (its deletion removes them with the media files). */
export async function ladderKeys(db: DB, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('video_ladders').select('storage_keys').where('post_id', '=', postId).execute();
  return rows.flatMap((r) => r.storage_keys);
}

/**
 * The backfill (scripts/backfill-ladders.ts): one 'build-ladder' outbox row per finished post
 * with a video file and no ladder, `limit` posts at a time after `after` (by id). Returns the
 * entries to dispatch and the last id, or null when none is left. A post queued already keeps its
 * row (same jobId), so running it twice queues nothing twice.
 */
export async function queueLadderBackfill(db: DB, after: string | null, limit: number): Promise<{ entries: QueuedEntry[]; last: string | null }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('media_files as m')
      .innerJoin('posts as p', 'p.id', 'm.post_id')
      .leftJoin('video_ladders as l', (j) => j.onRef('l.post_id', '=', 'm.post_id').onRef('l.position', '=', 'm.position'))
      .select('m.post_id')
      .distinct()
      .where('m.variant', '=', 'original')
      .where('m.content_type', 'like', 'video/%')
      .where('p.status', '<>', 'processing')
      .where('l.post_id', 'is', null)
      .$if(after !== null, (q) => q.where('m.post_id', '>', after!))
      .orderBy('m.post_id')
      .limit(limit)
      .execute();
    const entries = await addManyToOutbox(
      trx,
      rows.map((r) => ({ queue: 'transcode' as const, name: 'build-ladder' as const, data: { postId: r.post_id }, jobId: ladderJobId(r.post_id), options: LADDER_JOB_OPTIONS })),
    );
    return { entries, last: rows.at(-1)?.post_id ?? null };
  });
}

