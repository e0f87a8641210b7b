import type { DB } from '../../../core/db/kysely';

/** One upload of a post of several files, claimed once: by its tus id and by its place in the group (either taken: false). */
export async function claimGroupUpload(
  db: DB,
  row: { id: string; userId: string; filename: string; byteSize: number; group: string; position: number; size: number; sourceKey: string },
): Promise<boolean> {
  const result = await db
    .insertInto('uploads')
    .values({
      id: row.id,
      user_id: row.userId,
      filename: row.filename,
      byte_size: row.byteSize,
      upload_group: row.group,
      group_position: row.position,
      group_size: row.size,
      source_key: row.sourceKey,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The finished uploads of the creator's group, in their order. */
export function findGroupUploads(db: DB, userId: string, group: string) {
  return db
    .selectFrom('uploads')
    .select(['id', 'filename', 'byte_size', 'group_position', 'group_size', 'source_key', 'post_id'])
    .where('user_id', '=', userId)
    .where('upload_group', '=', group)
    .orderBy('group_position')
    .execute();
}

/** The group's uploads became `postId`; their waiting bytes are the post's now (its media rows point at them). */
export async function linkGroupToPost(db: DB, userId: string, group: string, postId: string): Promise<void> {
  await db.updateTable('uploads').set({ post_id: postId, source_key: null }).where('user_id', '=', userId).where('upload_group', '=', group).execute();
}
