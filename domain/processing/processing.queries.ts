import { sql } from 'kysely';
import type { MediaKind, MediaVariant, ProfileVisibility } from '../../common/enums';
import type { DB } from '../../core/db/kysely';

/**
 * The processing state machine's reads and writes (processing -> draft | published | failed,
 * failed -> processing), for the media worker (worker/jobs/media.ts), the maintenance job's
 * requeue and the creator's retry: one query each, the final write in one transaction.
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

/**
 * A failed post goes back to 'processing' (reason cleared): the worker picking up a job retried
 * from the dashboard, or its creator retrying (`creatorId`: only their own post). Undefined when
 * the post is not (or no longer) failed, or not theirs.
 */
export function reopenFailedPost(db: DB, postId: string, opts: { creatorId?: string } = {}) {
  return db
    .updateTable('posts')
    .set({ status: 'processing', failure_reason: null, updated_at: new Date() })
    .where('id', '=', postId)
    .$if(opts.creatorId !== undefined, (q) => q.where('creator_id', '=', opts.creatorId!))
    .where('status', '=', 'failed')
    .returning(['media_kind'])
    .executeTakeFirst();
}

export interface ProcessedFileRow {
  variant: MediaVariant;
  storageKey: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

/**
 * The processed files replace the post's media rows and the post takes the status its creator
 * chose, in one transaction. The post is locked first; null (nothing written) when it is gone,
 * no longer 'processing' (deleted or finished meanwhile), or no longer held by `runId` (another
 * run took it over, thinking this one dead, and may have deleted this run's files).
 */
export async function completeProcessing(
  db: DB,
  postId: string,
  runId: string,
  mediaKind: MediaKind,
  files: ProcessedFileRow[],
): Promise<{ status: 'draft' | 'published'; previousKeys: string[]; creatorVisibility: ProfileVisibility | null } | null> {
  return db.transaction().execute(async (trx) => {
    const post = await trx
      .selectFrom('posts')
      .select(['status', 'target_status', 'processing_run'])
      .where('id', '=', postId)
      .forUpdate()
      .executeTakeFirst();
    if (!post || post.status !== 'processing' || post.processing_run !== runId) return null;
    const previous = await trx.deleteFrom('media_files').where('post_id', '=', postId).returning('storage_key').execute();
    await trx
      .insertInto('media_files')
      .values(
        files.map((f) => ({
          post_id: postId,
          variant: f.variant,
          storage_key: f.storageKey,
          content_type: f.contentType,
          byte_size: f.byteSize,
          width: f.width,
          height: f.height,
          duration_seconds: f.durationSeconds,
        })),
      )
      .execute();
    const status = post.target_status;
    const updated = await trx
      .updateTable('posts')
      .set({
        status,
        media_kind: mediaKind,
        failure_reason: null,
        updated_at: sql<Date>`now()`,
        published_at: status === 'published' ? sql<Date>`now()` : null,
      })
      .where('id', '=', postId)
      // who hears of it depends on the creator's privacy as it is now, not at upload time
      .returning((eb) =>
        eb
          .selectFrom('privacy_settings')
          .select('privacy_settings.profile_visibility')
          .whereRef('privacy_settings.user_id', '=', 'posts.creator_id')
          .as('profile_visibility'),
      )
      .executeTakeFirstOrThrow();
    return { status, previousKeys: previous.map((r) => r.storage_key), creatorVisibility: updated.profile_visibility ?? null };
  });
}

/** The post failed for good: 'failed' with the reason its creator reads. False when it was not processing. */
export async function failProcessing(db: DB, postId: string, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('posts')
    .set({ status: 'failed', failure_reason: reason, updated_at: new Date() })
    .where('id', '=', postId)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a post touched (so a requeued post is not looked at again at once). */
export async function touchPost(db: DB, postId: string): Promise<void> {
  await db.updateTable('posts').set({ updated_at: new Date() }).where('id', '=', postId).execute();
}
