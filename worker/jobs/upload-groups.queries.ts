import type { DB } from '../../core/db/kysely';

/**
 * The uploads of groups (posts of several files) that never all arrived: no post was made, and
 * the group's newest file came before `before`. Whole groups, oldest first, a page at a time.
 */
export function findAbandonedGroupUploads(db: DB, before: Date, limit: number) {
  return db
    .selectFrom('uploads as u')
    .select(['u.id', 'u.source_key'])
    .where('u.upload_group', 'is not', null)
    .where('u.post_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      // a file of the group arrived lately: the creator may still be sending the rest
      not(
        exists(
          selectFrom('uploads as n')
            .select('n.id')
            .whereRef('n.user_id', '=', 'u.user_id')
            .whereRef('n.upload_group', '=', 'u.upload_group')
            .where('n.created_at', '>=', before),
        ),
      ),
    )
    .where('u.created_at', '<', before)
    .orderBy('u.created_at')
    .limit(limit)
    .execute();
}

/** Deletes those rows, still without a post (a group completed meanwhile keeps them). */
export async function deleteGroupUploads(db: DB, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('uploads').where('id', 'in', ids).where('post_id', 'is', null).where('upload_group', 'is not', null).executeTakeFirst();
  return Number(result.numDeletedRows);
}
