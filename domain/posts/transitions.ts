import { sql } from 'kysely';
import type { MediaKind, ProfileVisibility } from '../../common/enums';
import type { DB } from '../../core/db/kysely';
import { addToOutbox } from '../../core/outbox/outbox';
import type { AnnouncedPost } from '../announcements/post-events';
import { notifyNewPost } from '../notifications/fan-out';
import { hasVideoFile, queueLadder } from '../streaming/ladders.queries';
import { noPostEffects, type PostEffects } from './effects';
import type { FinishedStatus } from './lifecycle';
import {
  countPinned,
  setPostPinned,
  updatePostContent,
  type PostContentEdit,
  deletePostRow,
  findStorageKeys,
  finishProcessing,
  insertProcessingPost,
  lockOwnPost,
  lockProcessing,
  markFailed,
  findDueScheduled,
  moveSchedule,
  publishPost,
  reopenFailed,
  unschedule,
  replaceMediaFiles,
  type NewProcessingPost,
  type ProcessedFileRow,
} from './lifecycle.queries';
import { completeFile, insertPostFiles, insertReadyFiles, removeFailedFile, reopenFailedFiles, type NewPostFile, type ReadyPostFile } from './files.queries';

/**
 * One post lifecycle (lifecycle.ts): every change of a post's state, for the server's features
 * (uploads, posts, profiles) and the worker (media job, lost-job sweep). Each takes the database
 * or the caller's transaction, writes the change (refused, with nothing written, from a state the
 * change does not start from) and returns who must hear of it as PostEffects, which the caller
 * hands to applyPostEffects (./effects.ts) after the commit. No other code writes `posts.status`.
 */

export type { NewProcessingPost, ProcessedFileRow };

/** A finished upload becomes a post 'processing' (in the upload's transaction), to be queued for its media job. */
export async function createProcessingPost(trx: DB, post: NewProcessingPost): Promise<PostEffects> {
  await insertProcessingPost(trx, post);
  return { ...noPostEffects(), process: [{ postId: post.id, mediaKind: post.mediaKind }] };
}

/**
 * The last upload of a post of several files becomes a post 'processing' with one row per file
 * (files.queries.ts), queued once; on the transcode queue when any file is a video.
 */
export async function createPostOfFiles(trx: DB, post: NewProcessingPost, files: NewPostFile[]): Promise<PostEffects> {
  await insertProcessingPost(trx, post);
  await insertPostFiles(trx, post.id, files);
  const mediaKind = files.some((f) => f.mediaKind === 'video') ? 'video' : post.mediaKind;
  return { ...noPostEffects(), process: [{ postId: post.id, mediaKind }] };
}

/**
 * A new post of files from the creator's vault (processed already, shared stored objects): it
 * starts 'processing' like any post and is queued; the run finds every file ready and completes
 * it at once, so it is published (or kept a draft) by the same change as an upload.
 */
export async function createPostFromVault(trx: DB, post: NewProcessingPost, files: ReadyPostFile[]): Promise<PostEffects> {
  await insertProcessingPost(trx, post);
  await insertReadyFiles(trx, post.id, files);
  return { ...noPostEffects(), process: [{ postId: post.id, mediaKind: 'image' }] };
}

/**
 * The creator removes a failed file from their failed post of several files; the post is then
 * retried: its other files are ready, so the run completes it at once. Null when the post or the
 * file is not one to remove (not theirs, not failed, the file not failed, its last file).
 */
export async function removeFailedFileAndRetry(db: DB, creatorId: string, postId: string, position: number): Promise<{ effects: PostEffects; keys: string[] } | null> {
  return db.transaction().execute(async (trx) => {
    const keys = await removeFailedFile(trx, creatorId, postId, position);
    if (!keys) return null;
    const effects = await retryPost(trx, postId, { creatorId });
    return effects ? { effects, keys } : null;
  });
}

/**
 * failed -> processing (reason cleared), to be queued again: the creator's retry (`creatorId`:
 * only their own post), or a media job retried from Bull Board (whose own run is the processing:
 * it leaves `effects` unapplied). Null when the post is not failed (or not theirs).
 */
export async function retryPost(db: DB, postId: string, opts: { creatorId?: string } = {}): Promise<PostEffects | null> {
  const row = await reopenFailed(db, postId, opts);
  if (!row) return null;
  // a post of several files: its failed files are processed again, its ready ones kept
  await reopenFailedFiles(db, postId);
  return { ...noPostEffects(), process: [{ postId, mediaKind: row.media_kind }] };
}

export interface Completed {
  status: FinishedStatus;
  /** the keys of the media rows replaced (the uploaded bytes), for the caller to delete */
  previousKeys: string[];
  effects: PostEffects;
}

/**
 * processing -> the status its creator chose (published with its published_at, or draft), the
 * processed files replacing the post's media rows, in one transaction. The post is locked first;
 * null (nothing written) when it is gone, no longer 'processing' (deleted or finished meanwhile),
 * or no longer held by `runId` (another run took it over, thinking this one dead, and may have
 * deleted this run's files).
 */
export async function completeProcessing(
  db: DB,
  // files null: a post of several files, whose rows each file's completion wrote already
  { postId, runId, mediaKind, files }: { postId: string; runId: string; mediaKind: MediaKind; files: ProcessedFileRow[] | null },
): Promise<Completed | null> {
  return db.transaction().execute(async (trx) => {
    const post = await lockProcessing(trx, postId);
    if (!post || post.processing_run !== runId) return null;
    const previousKeys = files ? await replaceMediaFiles(trx, postId, files) : [];
    const status = post.target_status;
    const row = await finishProcessing(trx, postId, status, mediaKind);
    if (!row) return null;
    const announced = { postId, creatorId: row.creator_id, optimisticId: row.optimistic_id };
    // a draft and a scheduled post are the creator's alone: their tabs hear it is ready
    const effects =
      status === 'published'
        ? await published(trx, announced, row.profile_visibility ?? null)
        : { ...noPostEffects(), events: [{ kind: 'draft-ready' as const, post: announced }] };
    // its videos' HLS ladders, made from the MP4s just stored (docs/media.md): the MP4 plays until then
    if (await hasVideoFile(trx, postId)) effects.jobs.push(await queueLadder(trx, postId));
    return { status, previousKeys, effects };
  });
}

/**
 * One file of a post of several is processed: its variants become the post's and it is ready,
 * while the post is still processing and held by `runId` (as completeProcessing). The keys of
 * the rows replaced (its uploaded bytes), or null when nothing was written.
 */
export async function completePostFile(db: DB, { postId, runId, position, files }: { postId: string; runId: string; position: number; files: ProcessedFileRow[] }): Promise<string[] | null> {
  return db.transaction().execute(async (trx) => {
    const post = await lockProcessing(trx, postId);
    if (!post || post.processing_run !== runId) return null;
    return completeFile(trx, postId, position, files);
  });
}

/** processing -> failed with the reason its creator reads. Null when it was not processing (failed, finished or deleted already). */
export async function failPost(db: DB, postId: string, reason: string): Promise<PostEffects | null> {
  const row = await markFailed(db, postId, reason);
  if (!row) return null;
  return { ...noPostEffects(), events: [{ kind: 'failed', post: { postId, creatorId: row.creator_id, optimisticId: row.optimistic_id }, reason }] };
}

/**
 * draft | scheduled -> published: the creator's own draft, or scheduled post published now. Null
 * for another user's post, an unknown id and a post that is neither.
 */
export async function publishDraft(db: DB, creatorId: string, postId: string): Promise<PostEffects | null> {
  return db.transaction().execute(async (trx) => {
    const row = await publishPost(trx, postId, { creatorId });
    if (!row) return null;
    return published(trx, { postId: row.id, creatorId, optimisticId: row.optimistic_id }, row.profile_visibility ?? null);
  });
}

/**
 * scheduled -> published for one post whose time (by `now`) has come: the schedule's job. The
 * write is conditional on the post still being scheduled and due, so two runs at once (two
 * workers, a retry) publish it once: the second gets null.
 */
export async function publishDue(db: DB, postId: string, now: Date): Promise<PostEffects | null> {
  return db.transaction().execute(async (trx) => {
    const row = await publishPost(trx, postId, { dueBy: now });
    if (!row) return null;
    return published(trx, { postId: row.id, creatorId: row.creator_id, optimisticId: row.optimistic_id }, row.profile_visibility ?? null);
  });
}

/** The scheduled posts due by `now` (a batch; the job loops until none is left). */
export function dueScheduledPosts(db: DB, now: Date, limit: number): Promise<string[]> {
  return findDueScheduled(db, now, limit);
}

/**
 * scheduled -> scheduled at `publishAt` (checked by the caller: common/schedule.ts), the
 * creator's own post only; their other tabs hear it as a draft-ready (their lists read again).
 * Null when it is not theirs or no longer scheduled (published meanwhile).
 */
export async function reschedulePost(db: DB, creatorId: string, postId: string, publishAt: Date): Promise<PostEffects | null> {
  const row = await moveSchedule(db, creatorId, postId, publishAt);
  if (!row) return null;
  return { ...noPostEffects(), events: [{ kind: 'draft-ready', post: { postId, creatorId, optimisticId: row.optimistic_id } }] };
}

/** scheduled -> draft, the creator's own post only. Null when it is not theirs or no longer scheduled. */
export async function cancelSchedule(db: DB, creatorId: string, postId: string): Promise<PostEffects | null> {
  const row = await unschedule(db, creatorId, postId);
  if (!row) return null;
  return { ...noPostEffects(), events: [{ kind: 'draft-ready', post: { postId, creatorId, optimisticId: row.optimistic_id } }] };
}

/**
 * Any state -> gone, the creator's own post only, in one transaction: the rows go (likes,
 * comments, bookmarks and media rows by cascade) and the outbox job 'delete-post-files' removes
 * the stored files. The post is locked first, so a media job writing variants right now finishes
 * before the file list is read (or fails after). Null when it is not there (or not theirs).
 */
export async function deletePost(db: DB, creatorId: string, postId: string): Promise<PostEffects | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockOwnPost(trx, postId, creatorId))) return null;
    const keys = await findStorageKeys(trx, postId);
    if (!(await deletePostRow(trx, postId))) return null;
    // the outbox row commits with the deletion (Redis away: the relay queues it)
    const job = await addToOutbox(trx, { queue: 'maintenance', name: 'delete-post-files', data: { postId, keys }, jobId: `delete-post-files-${postId}` });
    return { ...noPostEffects(), events: [{ kind: 'deleted' as const, postId, creatorId }], jobs: [job] };
  });
}

/**
 * What follows a post becoming published, however it did (processing finished, a draft
 * published, a scheduled post's time come or published now). `db` is the transaction of the change: work
 * that must happen for every publication (notifying subscribers) goes here as an outbox row.
 */
async function published(db: DB, post: AnnouncedPost, creatorVisibility: ProfileVisibility | null): Promise<PostEffects> {
  // the subscribers' 'new post' notifications: batched by the fan-out job, written once per post
  const fanOut = await notifyNewPost(db, post.postId);
  return { ...noPostEffects(), events: [{ kind: 'published', post, creatorVisibility }], jobs: [fanOut] };
}

/**
 * The creator edits their own post's text, hashtags, title, premium flag and unlock price (issue
 * 29 item 4): the status, the media and the unlocks already bought stay as they are (a post made
 * premium or priced locks at once for the rest: the access rule reads the new columns). Null when
 * the post is not theirs.
 */
export async function editPost(db: DB, creatorId: string, postId: string, edit: PostContentEdit, at: Date): Promise<{ postId: string } | null> {
  const row = await updatePostContent(db, creatorId, postId, edit, at);
  return row ? { postId: row.id } : null;
}

export type PinOutcome = 'pinned' | 'unpinned' | 'limit' | 'not-found';

/**
 * Pins (at most `max` per creator, counted under the creator's lock so two tabs cannot both pin a
 * fourth) or unpins the creator's own published post (issue 29 item 5).
 */
export async function pinPost(db: DB, creatorId: string, postId: string, pinned: boolean, max: number, at: Date): Promise<PinOutcome> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`pins:${creatorId}`}, 0))`.execute(trx);
    if (pinned) {
      const current = await trx.selectFrom('posts').select('pinned_at').where('id', '=', postId).where('creator_id', '=', creatorId).executeTakeFirst();
      if (current?.pinned_at) return 'pinned';
      if ((await countPinned(trx, creatorId)) >= max) return 'limit';
    }
    const row = await setPostPinned(trx, creatorId, postId, pinned ? at : null);
    return row ? (pinned ? 'pinned' : 'unpinned') : 'not-found';
  });
}
