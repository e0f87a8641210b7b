import { sql, type SqlBool } from 'kysely';
import type { FeedCursor } from '../../../common/post-schemas';
import type { DB } from '../../../core/db/kysely';
import { visiblePostWhere } from '../../../domain/access/access';
import { cardsOf, postsWithPrivacy } from '../../shared/post-cards/post-cards.queries';

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

/** The user's bookmarked posts that are visible to them, newest bookmark first, after the cursor. */
export function findBookmarkedPage(db: DB, opts: { userId: string; cursor: FeedCursor | null; limit: number }) {
  const { cursor } = opts;
  const page = postsWithPrivacy(db)
    .innerJoin('bookmarks as b', (j) => j.onRef('b.post_id', '=', 'posts.id').on('b.user_id', '=', opts.userId))
    .select(['posts.id', 'b.created_at as sort_at'])
    .where(visiblePostWhere(opts.userId))
    .$if(cursor !== null, (q) =>
      q.where(sql<SqlBool>`(b.created_at, b.post_id) < (${cursor!.createdAt}::timestamptz, ${cursor!.id}::uuid)`),
    )
    .orderBy('b.created_at', 'desc')
    .orderBy('b.post_id', 'desc')
    .limit(opts.limit);
  return cardsOf(db, opts.userId, page);
}
