import type { DB } from '../../../core/db/kysely';

/** A finished upload: who sent it, its size, and the post it became (null once deleted). */
export function findFinishedUpload(db: DB, uploadId: string) {
  return db.selectFrom('uploads').select(['id', 'user_id', 'post_id', 'byte_size']).where('id', '=', uploadId).executeTakeFirst();
}

/** Claims the upload id; false when another finish already did (the unique key decides). */
export async function claimUpload(db: DB, row: { id: string; userId: string; filename: string; byteSize: number }): Promise<boolean> {
  const result = await db
    .insertInto('uploads')
    .values({ id: row.id, user_id: row.userId, filename: row.filename, byte_size: row.byteSize })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The uploaded bytes as the post's 'original' until the worker replaces it with the processed file. */
export async function insertSourceFile(db: DB, postId: string, storageKey: string, byteSize: number): Promise<void> {
  await db
    .insertInto('media_files')
    .values({ post_id: postId, variant: 'original', storage_key: storageKey, content_type: 'application/octet-stream', byte_size: byteSize })
    .execute();
}

export async function linkUploadToPost(db: DB, uploadId: string, postId: string): Promise<void> {
  await db.updateTable('uploads').set({ post_id: postId }).where('id', '=', uploadId).execute();
}

/** The creator's posts that are not through the pipeline yet (processing) or failed in it, newest first. */
export function findUnfinishedPosts(db: DB, creatorId: string, limit: number) {
  return db
    .selectFrom('posts')
    .select(['id', 'title', 'status', 'target_status', 'media_kind', 'original_filename', 'failure_reason', 'optimistic_id', 'created_at', 'updated_at'])
    // a post of several files: how many (its original_filename is the first file's)
    .select((eb) => eb.selectFrom('post_files').select(eb.fn.countAll<string>().as('n')).whereRef('post_files.post_id', '=', 'posts.id').as('file_count'))
    .where('creator_id', '=', creatorId)
    .where('status', 'in', ['processing', 'failed'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
