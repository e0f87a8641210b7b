import sharp from 'sharp';
import type { DB } from '../../core/db/kysely';
import type { Storage } from '../../core/storage/storage';
import { makePost, type MadePost } from './factories';
import { photoLikeJpeg } from './media-fixtures';

/** Stored bytes of each size of a picture post made by `makePicturePost`. */
export type PictureBytes = Record<'original' | 'web' | 'thumb', Buffer>;

/**
 * A picture post whose sizes are real JPEGs (a photo-like picture: 1200 x 900, web 1080 and thumb
 * 320 px wide), as the pipeline stores them; the premium preview stays the factory's.
 */
export async function makePicturePost(
  db: DB,
  storage: Storage,
  opts: Parameters<typeof makePost>[2],
): Promise<MadePost & { bytes: PictureBytes }> {
  const post = await makePost(db, storage, { kind: 'image', ...opts });
  const photo = await photoLikeJpeg();
  const bytes: PictureBytes = {
    original: photo,
    web: await sharp(photo).resize({ width: 1080 }).jpeg({ quality: 82 }).toBuffer(),
    thumb: await sharp(photo).resize({ width: 320 }).jpeg({ quality: 78 }).toBuffer(),
  };
  for (const variant of ['original', 'web', 'thumb'] as const) {
    await storage.put(post.keys[variant]!, bytes[variant], 'image/jpeg');
    await db.updateTable('media_files').set({ byte_size: bytes[variant].length }).where('post_id', '=', post.id).where('variant', '=', variant).execute();
  }
  return { ...post, bytes };
}

/** A creator's media settings with the buyer's mark on or off (what Media settings saves). */
export async function setMarkPaidPictures(db: DB, creatorId: string, on: boolean): Promise<void> {
  await db
    .insertInto('media_settings')
    .values({ creator_id: creatorId, mark_paid_pictures: on })
    .onConflict((oc) => oc.column('creator_id').doUpdateSet({ mark_paid_pictures: on, updated_at: new Date() }))
    .execute();
}
