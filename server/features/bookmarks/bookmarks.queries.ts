import type { DB } from '../../../core/db/kysely';

/** True when the bookmark was added, false when it already existed. */
export async function insertBookmark(db: DB, userId: string, postId: string): Promise<boolean> {
  const result = await db
    .insertInto('bookmarks')
    .values({ user_id: userId, post_id: postId })
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when a bookmark was removed. */
export async function deleteBookmark(db: DB, userId: string, postId: string): Promise<boolean> {
  const result = await db.deleteFrom('bookmarks').where('user_id', '=', userId).where('post_id', '=', postId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countBookmarks(db: DB, postId: string): Promise<number> {
  const row = await db
    .selectFrom('bookmarks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
