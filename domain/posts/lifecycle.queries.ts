import { sql, type ExpressionBuilder } from 'kysely';
import type { MediaKind, MediaVariant } from '../../common/enums';
import type { DB } from '../../core/db/kysely';
import type { Database } from '../../core/db/schema';
import type { UnlockMode } from '../../common/post-unlock';
import { becoming, changeableFrom, type FinishedStatus } from './lifecycle';

/**
 * The only writes of a post's state (lifecycle.ts): each is one statement guarded by the states
 * its change starts from, and returns what its announcements need (who the creator is, the
 * upload's optimistic id, the creator's profile visibility now). Called by ./transitions.ts only.
 */

/** The creator's profile visibility as it is now (who hears of a publication depends on it, not on upload time). */
const creatorVisibility = (eb: ExpressionBuilder<Database, 'posts'>) =>
  eb
    .selectFrom('privacy_settings')
    .select('privacy_settings.profile_visibility')
    .whereRef('privacy_settings.user_id', '=', 'posts.creator_id')
    .as('profile_visibility');

export interface NewProcessingPost {
  id: string;
  creatorId: string;
  title: string | null;
  text: string | null;
  hashtags: string[];
  isPremium: boolean;
  isNsfw: boolean;
  targetStatus: FinishedStatus;
  /** a scheduled post's time (required when targetStatus is 'scheduled': posts_publish_at_check) */
  publishAt?: Date | null;
  mediaKind: MediaKind;
  originalFilename: string;
  optimisticId: string | null;
  /** pay-per-view (issue 27 item 2): its price in cents (posts_unlock_price_check) and who pays; absent or null: not for sale */
  unlock?: { priceCents: number; mode: UnlockMode } | null;
}

export async function insertProcessingPost(db: DB, post: NewProcessingPost): Promise<void> {
  await db
    .insertInto('posts')
    .values({
      id: post.id,
      creator_id: post.creatorId,
      title: post.title,
      post_text: post.text,
      hashtags: post.hashtags,
      is_premium: post.isPremium,
      is_nsfw: post.isNsfw,
      status: 'processing',
      target_status: post.targetStatus,
      publish_at: post.targetStatus === 'scheduled' ? (post.publishAt ?? null) : null,
      media_kind: post.mediaKind,
      original_filename: post.originalFilename,
      optimistic_id: post.optimisticId,
      unlock_price_cents: post.unlock?.priceCents ?? null,
      unlock_mode: post.unlock?.mode ?? null,
    })
    .execute();
}

/** failed -> processing, reason cleared (`creatorId`: only their own post). Undefined when not failed, or not theirs. */
export function reopenFailed(db: DB, postId: string, opts: { creatorId?: string }) {
  return db
    .updateTable('posts')
    .set({ status: 'processing', failure_reason: null, updated_at: new Date() })
    .where('id', '=', postId)
    .$if(opts.creatorId !== undefined, (q) => q.where('creator_id', '=', opts.creatorId!))
    .where('status', 'in', changeableFrom('retry'))
    .returning(['media_kind'])
    .executeTakeFirst();
}

/** The post locked for its final processing write, when it is still processing. */
export function lockProcessing(trx: DB, postId: string) {
  return trx
    .selectFrom('posts')
    .select(['status', 'target_status', 'processing_run'])
    .where('id', '=', postId)
    .where('status', 'in', changeableFrom('complete'))
    .forUpdate()
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

/** The media_files rows of one file's stored variants (its `position` in the post, 0 for a post of one file). */
export function mediaFileRows(postId: string, position: number, files: ProcessedFileRow[]) {
  return files.map((f) => ({
    post_id: postId,
    position,
    variant: f.variant,
    storage_key: f.storageKey,
    content_type: f.contentType,
    byte_size: f.byteSize,
    width: f.width,
    height: f.height,
    duration_seconds: f.durationSeconds,
  }));
}

/** The processed files replace the post's media rows; the keys of the rows replaced. */
export async function replaceMediaFiles(trx: DB, postId: string, files: ProcessedFileRow[]): Promise<string[]> {
  const previous = await trx.deleteFrom('media_files').where('post_id', '=', postId).returning('storage_key').execute();
  await trx.insertInto('media_files').values(mediaFileRows(postId, 0, files)).execute();
  return previous.map((r) => r.storage_key);
}

/** processing -> `status` (published with its published_at, lifecycle.ts `becoming`). */
export function finishProcessing(trx: DB, postId: string, status: FinishedStatus, mediaKind: MediaKind) {
  return trx
    .updateTable('posts')
    .set({ ...becoming(status, sql<Date>`now()`), media_kind: mediaKind, failure_reason: null, updated_at: sql<Date>`now()` })
    .where('id', '=', postId)
    .where('status', 'in', changeableFrom('complete'))
    .returning((eb) => ['posts.creator_id', 'posts.optimistic_id', creatorVisibility(eb)])
    .executeTakeFirst();
}

/** processing -> failed with the reason its creator reads. Undefined when it was not processing. */
export function markFailed(db: DB, postId: string, reason: string) {
  return db
    .updateTable('posts')
    .set({ status: 'failed', failure_reason: reason, updated_at: new Date() })
    .where('id', '=', postId)
    .where('status', 'in', changeableFrom('fail'))
    .returning(['creator_id', 'optimistic_id'])
    .executeTakeFirst();
}

/**
 * draft | scheduled -> published: the caller's own post (`creatorId`), or, for the schedule's
 * job, a scheduled post whose time (`dueBy`) has come. The state (and owner or time) is part of
 * the statement, so another user's post, a published post, a processing upload and a post not
 * yet due are left alone (undefined), and of two runs at once only one writes: the other finds
 * it published already.
 */
export function publishPost(db: DB, postId: string, by: { creatorId: string } | { dueBy: Date }) {
  return db
    .updateTable('posts')
    .set({ ...becoming('published', sql<Date>`now()`), target_status: 'published', publish_at: null, updated_at: sql<Date>`now()` })
    .where('id', '=', postId)
    .$if('creatorId' in by, (q) => q.where('creator_id', '=', (by as { creatorId: string }).creatorId).where('status', 'in', changeableFrom('publish')))
    .$if('dueBy' in by, (q) => q.where('status', '=', 'scheduled').where('publish_at', '<=', (by as { dueBy: Date }).dueBy))
    .returning((eb) => ['posts.id', 'posts.creator_id', 'posts.optimistic_id', creatorVisibility(eb)])
    .executeTakeFirst();
}

/** Scheduled posts whose time has come by `now`, oldest first (posts_scheduled_idx). */
export async function findDueScheduled(db: DB, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('status', '=', 'scheduled')
    .where('publish_at', '<=', now)
    .orderBy('publish_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** scheduled -> scheduled at a new time, the caller's own post only. Undefined otherwise. */
export function moveSchedule(db: DB, creatorId: string, postId: string, publishAt: Date) {
  return db
    .updateTable('posts')
    .set({ publish_at: publishAt, updated_at: sql<Date>`now()` })
    .where('id', '=', postId)
    .where('creator_id', '=', creatorId)
    .where('status', 'in', changeableFrom('reschedule'))
    .returning(['id', 'optimistic_id'])
    .executeTakeFirst();
}

/** scheduled -> draft (its time forgotten), the caller's own post only. Undefined otherwise. */
export function unschedule(db: DB, creatorId: string, postId: string) {
  return db
    .updateTable('posts')
    .set({ ...becoming('draft', null), target_status: 'draft', publish_at: null, updated_at: sql<Date>`now()` })
    .where('id', '=', postId)
    .where('creator_id', '=', creatorId)
    .where('status', 'in', changeableFrom('cancel'))
    .returning(['id', 'optimistic_id'])
    .executeTakeFirst();
}

/**
 * Locks the post for deletion when `creatorId` owns it. Taken first in the delete transaction so
 * a media job writing variants right now finishes before the file list is read (or fails after).
 */
export function lockOwnPost(db: DB, postId: string, creatorId: string) {
  return db.selectFrom('posts').select('id').where('id', '=', postId).where('creator_id', '=', creatorId).forUpdate().executeTakeFirst();
}

export async function findStorageKeys(db: DB, postId: string): Promise<string[]> {
  // a file taken into another post from the vault is that post's too: its object stays
  const rows = await db
    .selectFrom('media_files as m')
    .select('m.storage_key')
    .where('m.post_id', '=', postId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('media_files as o').select('o.id').whereRef('o.storage_key', '=', 'm.storage_key').where('o.post_id', '<>', postId))),
    )
    .execute();
  // the HLS ladder's objects (video_ladders) are the post's alone
  const ladders = await db.selectFrom('video_ladders').select('storage_keys').where('post_id', '=', postId).execute();
  return [...rows.map((r) => r.storage_key), ...ladders.flatMap((l) => l.storage_keys)];
}

/** Deletes the post; likes, comments, bookmarks and media rows go with it (ON DELETE CASCADE). */
export async function deletePostRow(db: DB, postId: string): Promise<boolean> {
  const result = await db.deleteFrom('posts').where('id', '=', postId).where('status', 'in', changeableFrom('delete')).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What an edit may change (issue 29 item 4): never the status, the media or who bought it. */
export interface PostContentEdit {
  title: string | null;
  text: string | null;
  hashtags: string[];
  isPremium: boolean;
  unlockPriceCents: number | null;
  unlockMode: 'everyone' | 'non_subscribers' | null;
}

/** The creator's own post's content; null when it is not theirs (or gone). */
export async function updatePostContent(db: DB, creatorId: string, postId: string, edit: PostContentEdit, at: Date) {
  return db
    .updateTable('posts')
    .set({
      title: edit.title, post_text: edit.text, hashtags: edit.hashtags, is_premium: edit.isPremium,
      unlock_price_cents: edit.unlockPriceCents, unlock_mode: edit.unlockMode, updated_at: at,
    })
    .where('id', '=', postId)
    .where('creator_id', '=', creatorId)
    .returning(['id'])
    .executeTakeFirst();
}

/** Pins or unpins the creator's own published post; null when it is not theirs or not published. */
export async function setPostPinned(db: DB, creatorId: string, postId: string, pinnedAt: Date | null) {
  return db
    .updateTable('posts')
    .set({ pinned_at: pinnedAt })
    .where('id', '=', postId)
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'published')
    .returning(['id'])
    .executeTakeFirst();
}

/** How many posts the creator has pinned (posts_pinned). */
export async function countPinned(db: DB, creatorId: string): Promise<number> {
  const row = await db.selectFrom('posts').select((eb) => eb.fn.countAll<string>().as('n')).where('creator_id', '=', creatorId).where('pinned_at', 'is not', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the file at `position` out of a post of several: its rows go, the files after it move up
 * one place (one at a time, in order, so no two rows ever share a place), and the post's kind and
 * first file name follow its new first file. The keys of the rows removed. Called by ./vault-files.ts (a vault file deleted).
 */
export async function removePostFile(trx: DB, postId: string, position: number): Promise<string[]> {
  const gone = await trx.deleteFrom('media_files').where('post_id', '=', postId).where('position', '=', position).returning('storage_key').execute();
  await trx.deleteFrom('post_files').where('post_id', '=', postId).where('position', '=', position).execute();
  const later = await trx.selectFrom('post_files').select('position').where('post_id', '=', postId).where('position', '>', position).orderBy('position').execute();
  for (const { position: from } of later) {
    await trx.updateTable('media_files').set({ position: from - 1 }).where('post_id', '=', postId).where('position', '=', from).execute();
    await trx.updateTable('post_files').set({ position: from - 1, updated_at: new Date() }).where('post_id', '=', postId).where('position', '=', from).execute();
  }
  if (position === 0) {
    const first = await trx.selectFrom('post_files').select(['media_kind', 'original_filename']).where('post_id', '=', postId).where('position', '=', 0).executeTakeFirst();
    if (first) await trx.updateTable('posts').set({ media_kind: first.media_kind, original_filename: first.original_filename }).where('id', '=', postId).execute();
  }
  return gone.map((r) => r.storage_key);
}

