import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fromCents } from '../../../common/money';
import { SELLING_TEXTS } from '../../../common/selling';
import { maySell } from '../../../domain/people/verification';
import { UPLOAD_TEXTS } from '../../../common/texts';
import type { UnfinishedPostDto } from '../../../common/upload-dtos';
import { scheduleProblem } from '../../../common/schedule';
import { checkUploadFile, UploadMetadata, uploadRuleFor, type UploadRule } from '../../../common/uploads';
import type { AppDeps } from '../../../core/deps';
import {
  claimUpload,
  findFinishedUpload,
  findUnfinishedPosts,
  insertSourceFile,
  linkUploadToPost,
} from './uploads.queries';
import { countProcessingPosts, lockCreator } from '../../../domain/processing/processing-limit.queries';
import { applyPostEffects } from '../../../domain/posts/effects';
import { createProcessingPost } from '../../../domain/posts/transitions';
import { chosenPostFields } from './post-fields';
import { finishGroupUpload, isGroupUpload } from './post-groups.service';

/**
 * Post uploads: the rules checked when a tus upload is created and the one place an upload
 * becomes a post. The tus protocol itself lives in uploads.http.ts.
 */

/** An upload refused, with the HTTP status and the words the client shows. */
export class UploadRefusal extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly title: string,
    public readonly description?: string,
  ) {
    super(description ? `${title} - ${description}` : title);
  }

  toJSON() {
    return { error: { code: this.code, message: this.message, title: this.title, ...(this.description && { description: this.description }) } };
  }
}

export interface NewUpload {
  meta: UploadMetadata;
  rule: UploadRule;
  size: number;
}

/**
 * The checks of a new upload (tus POST), before a byte is stored: its declared length (required:
 * the size limit is enforced on it), its metadata, its extension and its size class.
 * 400 for missing length or bad metadata, 415 'Invalid file type', 413 'File too large'.
 */
export function checkNewUpload(input: {
  uploadLength: string | null;
  deferLength: string | null;
  metadata: Record<string, string | null | undefined> | undefined;
  /** the server's time (deps.clock): a scheduled post's time must be after it (common/schedule.ts) */
  now: Date;
}): NewUpload {
  if (input.deferLength !== null || input.uploadLength === null || !/^\d+$/.test(input.uploadLength)) {
    throw new UploadRefusal(400, 'LENGTH_REQUIRED', UPLOAD_TEXTS.uploadFailed, UPLOAD_TEXTS.lengthRequired);
  }
  const size = Number(input.uploadLength);
  const parsed = UploadMetadata.safeParse(input.metadata ?? {});
  if (!parsed.success) {
    const messages = parsed.error.issues.map((i) => i.message).join('; ');
    throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata, messages);
  }
  const when = parsed.data.publishAt ? scheduleProblem(new Date(parsed.data.publishAt), input.now) : null;
  if (when) throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata, when);
  const check = checkUploadFile({ name: parsed.data.filename, size });
  if (!check.ok) {
    throw check.reason === 'invalid-type'
      ? new UploadRefusal(415, 'INVALID_FILE_TYPE', check.toast.title, check.toast.description)
      : new UploadRefusal(413, 'FILE_TOO_LARGE', check.toast.title, check.toast.description);
  }
  if (size === 0) throw new UploadRefusal(400, 'EMPTY_FILE', UPLOAD_TEXTS.uploadFailed, UPLOAD_TEXTS.emptyFile);
  return { meta: parsed.data, rule: check.rule, size };
}

/**
 * One creator may have only so many posts processing (MAX_PROCESSING_POSTS_PER_CREATOR), so a
 * creator cannot fill the transcode queue for everyone: 429 'Too many uploads processing'. Checked
 * when an upload is created (before its bytes travel) and again, under a lock, when it finishes.
 */
export function tooManyProcessing(limit: number): UploadRefusal {
  const text = UPLOAD_TEXTS.tooManyProcessing(limit);
  return new UploadRefusal(429, 'TOO_MANY_PROCESSING', text.title, text.description);
}

export async function checkProcessingRoom(deps: Pick<AppDeps, 'db' | 'config'>, creatorId: string): Promise<void> {
  const limit = deps.config.MAX_PROCESSING_POSTS_PER_CREATOR;
  if ((await countProcessingPosts(deps.db, creatorId)) >= limit) throw tooManyProcessing(limit);
}

/** A pay-per-view upload sells the post: 403 before a byte travels unless the creator's identity is verified (issue 47 item 1). */
export async function checkMaySellPost(deps: Pick<AppDeps, 'db' | 'payments'>, creatorId: string): Promise<void> {
  if (!(await maySell(deps.db, creatorId, deps.payments.name))) throw new UploadRefusal(403, 'IDENTITY_NOT_VERIFIED', UPLOAD_TEXTS.uploadFailed, SELLING_TEXTS.verifyFirst('postPrice'));
}

/** What tus keeps with a partial upload: the checked metadata and the uploader, set by the server. */
export function storedMetadata(meta: UploadMetadata, userId: string): Record<string, string> {
  const stored: Record<string, string> = {
    filename: meta.filename,
    isPaidContent: String(meta.isPaidContent),
    isNsfw: String(meta.isNsfw),
    status: meta.status,
    userId,
  };
  if (meta.filetype) stored.filetype = meta.filetype;
  if (meta.title) stored.title = meta.title;
  if (meta.postText) stored.postText = meta.postText;
  if (meta.hashtags) stored.hashtags = meta.hashtags;
  if (meta.optimisticId) stored.optimisticId = meta.optimisticId;
  if (meta.publishAt) stored.publishAt = meta.publishAt;
  // the price as rand again: the finish parses what is stored with the same schema
  if (meta.unlockPrice !== undefined && meta.unlockMode) {
    stored.unlockPrice = fromCents(meta.unlockPrice);
    stored.unlockMode = meta.unlockMode;
  }
  if (meta.uploadGroup !== undefined && meta.fileIndex !== undefined && meta.fileCount !== undefined) {
    stored.uploadGroup = meta.uploadGroup;
    stored.fileIndex = String(meta.fileIndex);
    stored.fileCount = String(meta.fileCount);
  }
  return stored;
}

export interface FinishInput {
  uploadId: string;
  userId: string;
  /** as tus stored it (storedMetadata) */
  metadata: Record<string, string | null | undefined>;
  /** the declared Upload-Length */
  declaredSize: number;
  /** bytes actually received */
  receivedSize: number;
  /** reads the received bytes */
  open: () => Readable;
  /** the received bytes' file, when on local disk: storage may take it over without a copy */
  localPath?: string;
  /** the received bytes' key when they are already in storage (tus's S3 store): copied inside the store */
  storedKey?: string;
}

export interface FinishResult {
  /** null when the upload was finished before and its post has since been deleted */
  postId: string | null;
  /** false when an earlier finish already made the post */
  created: boolean;
}

/**
 * Turns a complete upload into a post, once: the bytes go to storage (`posts/<id>/upload.<ext>`,
 * private), then one transaction claims the upload id, inserts the post in 'processing' with
 * what the creator chose, and its 'original' media row pointing at those bytes; after the commit
 * the media job is queued (jobId `process-post-<postId>`). Finishing again, or twice at once,
 * answers with the first post: the `uploads` primary key decides, and the loser's copy of the
 * bytes is deleted. If queueing fails (Redis down: given up after 2x REDIS_COMMAND_TIMEOUT_MS)
 * the post is still 'processing', the finish answers as usual, and the workers' lost-job sweep
 * (worker/jobs/lost-jobs.ts) queues it within a minute of Redis being back. A creator with
 * MAX_PROCESSING_POSTS_PER_CREATOR posts processing is refused (429, the upload kept for a later finish); the creator's row is locked
 * while counting, so concurrent finishes cannot pass the limit together.
 */
/** The received bytes to `key`: a link on disk when storage allows (the finish then takes the same time whatever the size). */
export async function storeUploadedBytes(deps: Pick<AppDeps, 'storage'>, input: FinishInput, key: string): Promise<void> {
  if (input.storedKey && deps.storage.copy) await deps.storage.copy(input.storedKey, key, 'application/octet-stream');
  else if (input.localPath && deps.storage.putFile) await deps.storage.putFile(key, input.localPath, 'application/octet-stream');
  else await deps.storage.put(key, input.open(), 'application/octet-stream');
}

export async function finishUpload(deps: Pick<AppDeps, 'db' | 'storage' | 'queues' | 'log' | 'config' | 'realtime'>, input: FinishInput): Promise<FinishResult> {
  const earlier = await findFinishedUpload(deps.db, input.uploadId);
  if (earlier) {
    if (earlier.user_id !== input.userId) throw new UploadRefusal(403, 'FORBIDDEN', UPLOAD_TEXTS.notYourUpload);
    return { postId: earlier.post_id, created: false };
  }
  if (input.metadata.userId !== input.userId) throw new UploadRefusal(403, 'FORBIDDEN', UPLOAD_TEXTS.notYourUpload);
  const parsed = UploadMetadata.safeParse(input.metadata);
  const rule = parsed.success ? uploadRuleFor(parsed.data.filename) : null;
  if (!parsed.success || !rule) throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata);
  const meta = parsed.data;
  // the size limit again, on the bytes that arrived
  const check = checkUploadFile({ name: meta.filename, size: input.receivedSize });
  if (!check.ok) throw new UploadRefusal(413, 'FILE_TOO_LARGE', check.toast.title, check.toast.description);
  if (input.receivedSize !== input.declaredSize) {
    throw new UploadRefusal(409, 'INCOMPLETE', UPLOAD_TEXTS.uploadFailed, UPLOAD_TEXTS.damaged('upload'));
  }

  // before copying the bytes; checked again under the lock below
  const limit = deps.config.MAX_PROCESSING_POSTS_PER_CREATOR;
  const full = async () => {
    // a concurrent finish of this very upload may have made its post (and filled the last place)
    const winner = await findFinishedUpload(deps.db, input.uploadId);
    if (winner && winner.user_id === input.userId) return { postId: winner.post_id, created: false };
    throw tooManyProcessing(limit);
  };
  if ((await countProcessingPosts(deps.db, input.userId)) >= limit) return full();

  if (isGroupUpload(meta)) return finishGroupUpload(deps, input, meta, rule);

  const postId = randomUUID();
  const sourceKey = `posts/${postId}/upload.${rule.ext}`;
  try {
    await storeUploadedBytes(deps, input, sourceKey);
  } catch (error) {
    // a concurrent finish may have won and removed the incoming file under us
    const winner = await findFinishedUpload(deps.db, input.uploadId);
    if (winner && winner.user_id === input.userId) return { postId: winner.post_id, created: false };
    throw error;
  }

  const created = await deps.db.transaction().execute(async (trx) => {
    await lockCreator(trx, input.userId);
    if ((await countProcessingPosts(trx, input.userId)) >= limit) return 'full' as const;
    if (!(await claimUpload(trx, { id: input.uploadId, userId: input.userId, filename: meta.filename, byteSize: input.receivedSize }))) {
      return false;
    }
    const effects = await createProcessingPost(trx, {
      ...chosenPostFields(meta),
      id: postId,
      creatorId: input.userId,
      mediaKind: rule.mediaKind,
      originalFilename: meta.filename,
    });
    await insertSourceFile(trx, postId, sourceKey, input.receivedSize);
    await linkUploadToPost(trx, input.uploadId, postId);
    return effects;
  });
  if (created === 'full') {
    // the upload stays complete on disk: finishing it again (HEAD) works once a post is done
    await deps.storage.delete(sourceKey).catch(() => {});
    return full();
  }
  if (!created) {
    await deps.storage.delete(sourceKey).catch(() => {});
    const winner = await findFinishedUpload(deps.db, input.uploadId);
    return { postId: winner?.post_id ?? null, created: false };
  }

  // queued after the commit, bounded: with Redis away the finish answers within seconds, and the sweep queues it later
  await applyPostEffects(deps, created);
  return { postId, created: true };
}

/** The creator's posts still processing or failed (at most 50, newest first): the upload screen lists them. */
export async function unfinishedPosts(deps: Pick<AppDeps, 'db'>, creatorId: string): Promise<UnfinishedPostDto[]> {
  const rows = await findUnfinishedPosts(deps.db, creatorId, 50);
  return rows.map((row) => ({
    postId: row.id,
    status: row.status as 'processing' | 'failed',
    targetStatus: row.target_status,
    mediaKind: row.media_kind,
    title: row.title,
    filename: row.original_filename,
    fileCount: Math.max(1, Number(row.file_count ?? 0)),
    failureReason: row.failure_reason,
    optimisticId: row.optimistic_id,
    createdAt: row.created_at,
  }));
}
