import type { DB } from '../../core/db/kysely';

/**
 * What the media worker (worker/jobs/media.ts) and the lost-job sweep read and touch of a post
 * while it is processing. Its changes of state (processing -> draft | published | failed,
 * failed -> processing) are domain/posts/transitions.ts's.
 */

/** The post with what processing needs: its creator's username and watermark settings, and the uploaded file. */
export function findPostToProcess(db: DB, postId: string) {
  return db
    .selectFrom('posts')
    .innerJoin('profiles', 'profiles.id', 'posts.creator_id')
    .leftJoin('media_settings as ms', 'ms.creator_id', 'posts.creator_id')
    .leftJoin('media_files as src', (j) => j.onRef('src.post_id', '=', 'posts.id').on('src.variant', '=', 'original'))
    .select([
      'posts.id',
      'posts.creator_id',
      'posts.status',
      'posts.target_status',
      'posts.media_kind',
      'posts.original_filename',
      'posts.is_premium',
      'posts.optimistic_id',
      'profiles.username',
      'ms.watermark_enabled',
      'ms.watermark_text',
      'ms.watermark_position',
      'src.storage_key as source_key',
      'src.byte_size as source_size',
    ])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
}

/** Marks a post touched (so a requeued post is not looked at again at once). */
export async function touchPost(db: DB, postId: string): Promise<void> {
  await db.updateTable('posts').set({ updated_at: new Date() }).where('id', '=', postId).execute();
}
