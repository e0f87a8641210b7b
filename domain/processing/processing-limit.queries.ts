import type { DB } from '../../core/db/kysely';

/**
 * The per-creator limit on posts processing at once (MAX_PROCESSING_POSTS_PER_CREATOR): counted
 * when an upload is created and, under the creator's lock, when it finishes or a failed post is
 * retried, so one creator cannot fill the transcode queue for everyone.
 */

/** How many of the creator's posts are queued or in the worker (status 'processing'). */
export async function countProcessingPosts(db: DB, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'processing')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Locks the creator's row until the transaction ends, so that two finishes of one creator count
 * and insert their processing posts one after the other (NO KEY UPDATE: new rows referencing the
 * user are not blocked).
 */
export async function lockCreator(db: DB, creatorId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', creatorId).forNoKeyUpdate().execute();
}
