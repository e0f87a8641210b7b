import type { MediaKind } from '../../common/enums';
import type { DB } from '../../core/db/kysely';
import { mediaFileRows, type ProcessedFileRow } from './lifecycle.queries';

/**
 * The files of a post of several (post_files, one row each, with its own processing state) and
 * their stored variants (media_files at the file's `position`). The post's own state stays the
 * lifecycle's (lifecycle.queries.ts); these rows say which of its files are ready.
 */

export interface NewPostFile {
  position: number;
  mediaKind: MediaKind;
  filename: string;
  /** the uploaded bytes, the file's 'original' until the worker replaces it */
  sourceKey: string;
  byteSize: number;
}

export async function insertPostFiles(trx: DB, postId: string, files: NewPostFile[]): Promise<void> {
  await trx
    .insertInto('post_files')
    .values(files.map((f) => ({ post_id: postId, position: f.position, media_kind: f.mediaKind, original_filename: f.filename })))
    .execute();
  await trx
    .insertInto('media_files')
    .values(
      files.map((f) => ({
        post_id: postId,
        position: f.position,
        variant: 'original' as const,
        storage_key: f.sourceKey,
        content_type: 'application/octet-stream',
        byte_size: f.byteSize,
      })),
    )
    .execute();
}

/** The post's files in order, each with its current 'original' (the uploaded bytes until it is ready). */
export function findPostFiles(db: DB, postId: string) {
  return db
    .selectFrom('post_files as f')
    .leftJoin('media_files as m', (j) => j.onRef('m.post_id', '=', 'f.post_id').onRef('m.position', '=', 'f.position').on('m.variant', '=', 'original'))
    .select(['f.position', 'f.media_kind', 'f.original_filename', 'f.status', 'f.failure_reason', 'm.storage_key as source_key'])
    .where('f.post_id', '=', postId)
    .orderBy('f.position')
    .execute();
}

/** One file processed: its variants replace its rows, and it is ready. The keys of the rows replaced. */
export async function completeFile(trx: DB, postId: string, position: number, files: ProcessedFileRow[]): Promise<string[]> {
  const previous = await trx
    .deleteFrom('media_files')
    .where('post_id', '=', postId)
    .where('position', '=', position)
    .returning('storage_key')
    .execute();
  await trx.insertInto('media_files').values(mediaFileRows(postId, position, files)).execute();
  await trx.updateTable('post_files').set({ status: 'ready', failure_reason: null, updated_at: new Date() }).where('post_id', '=', postId).where('position', '=', position).execute();
  return previous.map((r) => r.storage_key);
}

export async function markFileFailed(db: DB, postId: string, position: number, reason: string): Promise<void> {
  await db
    .updateTable('post_files')
    .set({ status: 'failed', failure_reason: reason, updated_at: new Date() })
    .where('post_id', '=', postId)
    .where('position', '=', position)
    .where('status', '=', 'processing')
    .execute();
}

/** A retried post's failed files are processed again (the ready ones are kept). */
export async function reopenFailedFiles(db: DB, postId: string): Promise<void> {
  await db.updateTable('post_files').set({ status: 'processing', failure_reason: null, updated_at: new Date() }).where('post_id', '=', postId).where('status', '=', 'failed').execute();
}

/**
 * Removes one failed file of the creator's failed post, with its stored rows: the keys to delete.
 * Null when the post is not theirs, not failed, or the file is not a failed one, or it is the last file.
 */
export async function removeFailedFile(trx: DB, creatorId: string, postId: string, position: number): Promise<string[] | null> {
  const post = await trx
    .selectFrom('posts')
    .select('id')
    .where('id', '=', postId)
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'failed')
    .forUpdate()
    .executeTakeFirst();
  if (!post) return null;
  const files = await trx.selectFrom('post_files').select(['position', 'status']).where('post_id', '=', postId).execute();
  if (files.length < 2 || !files.some((f) => f.position === position && f.status === 'failed')) return null;
  await trx.deleteFrom('post_files').where('post_id', '=', postId).where('position', '=', position).execute();
  const gone = await trx.deleteFrom('media_files').where('post_id', '=', postId).where('position', '=', position).returning('storage_key').execute();
  return gone.map((r) => r.storage_key);
}

/** A file taken from the vault: processed already, its variants the same stored objects. */
export interface ReadyPostFile {
  position: number;
  mediaKind: MediaKind;
  filename: string;
  variants: (ProcessedFileRow & { variant: ProcessedFileRow['variant'] })[];
}

export async function insertReadyFiles(trx: DB, postId: string, files: ReadyPostFile[]): Promise<void> {
  await trx
    .insertInto('post_files')
    .values(files.map((f) => ({ post_id: postId, position: f.position, media_kind: f.mediaKind, original_filename: f.filename, status: 'ready' as const })))
    .execute();
  await trx
    .insertInto('media_files')
    .values(files.flatMap((f) => mediaFileRows(postId, f.position, f.variants)))
    .execute();
}
