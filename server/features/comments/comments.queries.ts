import type { DB } from '../../../core/db/kysely';

/** Every comment of the post with its author, oldest first (comments_post_idx). */
export function findComments(db: DB, postId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('profiles', 'profiles.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.post_id',
      'comments.parent_id',
      'comments.comment_text',
      'comments.created_at',
      'comments.user_id',
      'profiles.username',
      'profiles.display_name',
      'profiles.avatar_url',
    ])
    .where('comments.post_id', '=', postId)
    .orderBy('comments.created_at', 'asc')
    .orderBy('comments.id', 'asc')
    .execute();
}

/** True when `commentId` is a comment of `postId`. */
export async function commentBelongsToPost(db: DB, commentId: string, postId: string): Promise<boolean> {
  const row = await db.selectFrom('comments').select('id').where('id', '=', commentId).where('post_id', '=', postId).executeTakeFirst();
  return row !== undefined;
}

export function insertComment(db: DB, values: { postId: string; userId: string; parentId: string | null; text: string }) {
  return db
    .insertInto('comments')
    .values({ post_id: values.postId, user_id: values.userId, parent_id: values.parentId, comment_text: values.text })
    .returning(['id', 'post_id', 'parent_id', 'comment_text', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function countComments(db: DB, postId: string): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
