import { randomBytes } from 'node:crypto';
import type { DB } from '../../core/db/kysely';
import type { PictureMark } from './picture-mark';

/**
 * The record of marked pictures handed out (picture_mark_issues): the media route writes a row the
 * first time it marks a picture for a viewer, the tracer reads them all for the picture.
 */

/**
 * The mark of this picture for this viewer: the recorded one, or a new one with a random seed,
 * recorded now (two requests at once agree: the first insert wins and both read it).
 */
export async function issueMark(db: DB, opts: { postId: string; position: number; viewerId: string; label: string }): Promise<PictureMark> {
  await db
    .insertInto('picture_mark_issues')
    .values({ post_id: opts.postId, position: opts.position, viewer_id: opts.viewerId, seed: randomBytes(32), label: opts.label })
    .onConflict((oc) => oc.columns(['post_id', 'position', 'viewer_id']).doNothing())
    .execute();
  const row = await db
    .selectFrom('picture_mark_issues')
    .select(['seed', 'label'])
    .where('post_id', '=', opts.postId)
    .where('position', '=', opts.position)
    .where('viewer_id', '=', opts.viewerId)
    .executeTakeFirstOrThrow();
  return { label: row.label, seed: row.seed };
}

/** Everyone served a marked copy of the picture, with the mark they got. */
export async function findMarkCandidates(db: DB, postId: string, position: number): Promise<Array<PictureMark & { viewerId: string }>> {
  const rows = await db
    .selectFrom('picture_mark_issues')
    .select(['viewer_id', 'seed', 'label'])
    .where('post_id', '=', postId)
    .where('position', '=', position)
    .orderBy('first_at')
    .execute();
  return rows.map((row) => ({ viewerId: row.viewer_id, label: row.label, seed: row.seed }));
}

/** The picture a media file belongs to (its position in the post) and the key of its original, when it is this post's. */
export async function findTracedPicture(db: DB, postId: string, mediaId: string): Promise<{ position: number; originalKey: string | null } | null> {
  const row = await db
    .selectFrom('media_files as m')
    .leftJoin('media_files as o', (j) => j.onRef('o.post_id', '=', 'm.post_id').onRef('o.position', '=', 'm.position').on('o.variant', '=', 'original'))
    .select(['m.position', 'o.storage_key as original_key'])
    .where('m.id', '=', mediaId)
    .where('m.post_id', '=', postId)
    .executeTakeFirst();
  return row ? { position: row.position, originalKey: row.original_key } : null;
}

/** The id of a post's original picture at `position` (the trace job knows the file by its place). */
export async function findOriginalPictureId(db: DB, postId: string, position: number): Promise<string | null> {
  const row = await db
    .selectFrom('media_files')
    .select('id')
    .where('post_id', '=', postId)
    .where('position', '=', position)
    .where('variant', '=', 'original')
    .executeTakeFirst();
  return row?.id ?? null;
}
