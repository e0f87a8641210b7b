import { DetailedError, Upload, defaultOptions, type PreviousUpload, type UploadOptions } from 'tus-js-client';
import type { ToastText } from '../../../common/texts';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER, type UploadPostFields } from '../../../common/uploads';
import { MEBIBYTE } from '../../../common/file-size';
import { reportSessionEvent } from '../../lib/session';
import { failedStatus, refuseUnavailableHead, shouldRetryUpload, UPLOAD_RETRY_SCHEDULE_MS } from './upload-retry';

/**
 * The browser's side of post uploads (DESIGN.md: "tus chunks to /uploads"): tus-js-client v4 on
 * the tus endpoint, in 5 MB chunks, retried after a dropped connection, and resumable after a
 * reload. Framework-free: the upload form (features/uploads) drives it.
 *
 * Resuming: tus-js-client keeps, in localStorage, the address of each upload under a fingerprint
 * of its file. Ours is `creatorhub/<userId>/<name>/<type>/<size>/<lastModified>`, so an upload is
 * only ever offered back to the user who started it. When the same file is chosen again,
 * `findUnfinishedUpload` finds that address and asks the server how far it got (HEAD); starting
 * with it continues from the server's offset. The metadata travelled with the first request, so
 * a resumed upload becomes the post its creator described then.
 */

export const UPLOAD_ENDPOINT_PATH = '/uploads';
export const UPLOAD_CHUNK_BYTES = 5 * MEBIBYTE;

const FINGERPRINT_PREFIX = 'creatorhub';
const TUS_VERSION = '1.0.0';

function endpoint(): string {
  // absolute, so the stored upload addresses are absolute too
  return new URL(UPLOAD_ENDPOINT_PATH, window.location.origin).href;
}

function fingerprintOf(userId: string, file: File): string {
  return [FINGERPRINT_PREFIX, userId, file.name, file.type, file.size, file.lastModified].join('/');
}

/** What the creator chose, as it travels with the upload (common/uploads.ts `UploadMetadata`). */
export type PostUploadFields = Omit<UploadPostFields, 'filename'> & { optimisticId: string };

/** An upload the server refused or that could not get through; `text` is what the creator reads. */
export class PostUploadError extends Error {
  constructor(
    public readonly text: ToastText,
    /** the server's HTTP status, null when the request never got an answer */
    public readonly status: number | null,
    /** false when sending the same bytes again cannot help (a refusal) */
    public readonly retryable: boolean,
  ) {
    super(text.description ? `${text.title} - ${text.description}` : text.title);
  }
}

interface ServerRefusal {
  error?: { message?: string; title?: string; description?: string };
}

/**
 * The words for a failed upload: 'Upload failed' with the server's message when it answered
 * (413 'File too large - Maximum file size is 10MB', 401 'Please sign in to upload content', ...),
 * else 'Upload failed' / 'Failed to upload content'.
 */
export function toUploadError(error: unknown): PostUploadError {
  if (error instanceof PostUploadError) return error;
  const response = error instanceof DetailedError ? error.originalResponse : null;
  const status = error instanceof Error ? failedStatus(error) : null;
  let message: string | null = null;
  if (response) {
    try {
      const body = JSON.parse(response.getBody()) as ServerRefusal;
      message = body.error?.message ?? null;
    } catch {
      const text = response.getBody()?.trim();
      message = text && text.length < 300 && !text.startsWith('<') ? text : null;
    }
  }
  const retryable = status === null || status >= 500 || status === 409 || status === 423 || status === 429;
  return new PostUploadError({ title: UPLOAD_TEXTS.uploadFailed, description: message ?? UPLOAD_TEXTS.failedToUpload }, status, retryable);
}

export interface PostUploadCallbacks {
  /** bytes the server has, of the file's size */
  onProgress?: (bytesSent: number, bytesTotal: number) => void;
  /** the file is on the server and is a post now (processing) */
  onSuccess?: (result: { postId: string | null }) => void;
  /** the upload stopped: retries exhausted, or the server refused it */
  onError?: (error: PostUploadError) => void;
}

/** One file on its way to the server; pause and resume at will. */
export interface PostUpload {
  readonly file: File;
  readonly metadata: Record<string, string>;
  start(): void;
  /** stops sending; the server keeps what it has */
  pause(): Promise<void>;
  /** stops and asks the server to forget the upload */
  cancel(): Promise<void>;
}

/**
 * Prepares the upload of `file` with the creator's choices. With `resume` (from
 * `findUnfinishedUpload`), `start()` continues that earlier upload from the server's offset.
 */
export function createPostUpload(
  file: File,
  fields: PostUploadFields,
  userId: string,
  callbacks: PostUploadCallbacks,
  resume?: UnfinishedUpload,
): PostUpload {
  const metadata = resume?.metadata ?? toUploadMetadata({ ...fields, filename: file.name });
  let sessionReported = false;
  const options: UploadOptions = {
    endpoint: endpoint(),
    chunkSize: UPLOAD_CHUNK_BYTES,
    // retried as upload-retry.ts says: while the server answers 503 (Redis away) for minutes
    retryDelays: UPLOAD_RETRY_SCHEDULE_MS,
    onShouldRetry: (error, attempt) => shouldRetryUpload(error, attempt),
    onAfterResponse: refuseUnavailableHead,
    metadata,
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    fingerprint: (f: File) => Promise.resolve(fingerprintOf(userId, f)),
    onProgress: (sent, total) => callbacks.onProgress?.(sent, total),
    onSuccess: ({ lastResponse }) => callbacks.onSuccess?.({ postId: lastResponse.getHeader(UPLOAD_POST_ID_HEADER) ?? null }),
    onError: (error) => {
      const failure = toUploadError(error);
      if (failure.status === 401 && !sessionReported) {
        sessionReported = true;
        reportSessionEvent('unauthorized');
      }
      callbacks.onError?.(failure);
    },
  };
  const upload = new Upload(file, options);
  if (resume) upload.resumeFromPreviousUpload(resume.previous);

  return {
    file,
    metadata,
    start: () => upload.start(),
    pause: () => upload.abort(false),
    cancel: async () => {
      try {
        await upload.abort(true);
      } catch {
        // the server forgets abandoned uploads by itself (they expire)
      }
      if (resume) await removeStoredUpload(resume.previous);
    },
  };
}

/** An upload of this file started earlier in this browser, which the server still has. */
export interface UnfinishedUpload {
  previous: PreviousUpload;
  /** as sent when the upload was created (filename, postText, status, optimisticId, ...) */
  metadata: Record<string, string>;
  /** bytes the server has */
  offset: number;
  size: number;
  createdAt: Date;
}

type ProbeResult = { state: 'partial'; offset: number; size: number } | { state: 'gone' } | { state: 'unknown' };

/** HEAD: how much of an upload the server has. A finished or expired upload is 'gone'. */
async function probe(uploadUrl: string): Promise<ProbeResult> {
  try {
    const response = await fetch(uploadUrl, { method: 'HEAD', headers: { 'Tus-Resumable': TUS_VERSION }, credentials: 'same-origin', cache: 'no-store' });
    if (response.status === 404 || response.status === 410 || response.status === 403) return { state: 'gone' };
    if (!response.ok) return { state: 'unknown' };
    const offset = Number(response.headers.get('Upload-Offset'));
    const size = Number(response.headers.get('Upload-Length'));
    if (!Number.isFinite(offset) || !Number.isFinite(size) || size <= 0) return { state: 'unknown' };
    // complete: it became a post already (its last answer was lost); nothing to resume
    if (offset >= size) return { state: 'gone' };
    return { state: 'partial', offset, size };
  } catch {
    return { state: 'unknown' };
  }
}

function removeStoredUpload(previous: PreviousUpload): Promise<void> {
  return defaultOptions.urlStorage.removeUpload(previous.urlStorageKey).catch(() => undefined);
}

async function describe(previous: PreviousUpload): Promise<UnfinishedUpload | null> {
  if (!previous.uploadUrl) {
    await removeStoredUpload(previous);
    return null;
  }
  const result = await probe(previous.uploadUrl);
  if (result.state === 'gone') {
    await removeStoredUpload(previous);
    return null;
  }
  if (result.state === 'unknown') return null;
  return {
    previous,
    metadata: previous.metadata ?? {},
    offset: result.offset,
    size: result.size,
    createdAt: new Date(previous.creationTime),
  };
}

/** The newest unfinished upload of this very file by this user, if the server still has it. */
export async function findUnfinishedUpload(file: File, userId: string): Promise<UnfinishedUpload | null> {
  const stored = await defaultOptions.urlStorage.findUploadsByFingerprint(fingerprintOf(userId, file)).catch(() => [] as PreviousUpload[]);
  const newestFirst = [...stored].sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
  for (const previous of newestFirst) {
    const found = await describe(previous);
    if (found) return found;
  }
  return null;
}

/** Every unfinished upload this user started in this browser (to offer them back after a reload). */
export async function listUnfinishedUploads(userId: string): Promise<UnfinishedUpload[]> {
  const prefix = `tus::${FINGERPRINT_PREFIX}/${userId}/`;
  const stored = await defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
  const mine = stored.filter((p) => p.urlStorageKey.startsWith(prefix));
  const found = await Promise.all(mine.map(describe));
  return found.filter((u): u is UnfinishedUpload => u !== null).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** Forgets an unfinished upload here and on the server. */
export async function discardUnfinishedUpload(unfinished: UnfinishedUpload): Promise<void> {
  if (unfinished.previous.uploadUrl) {
    await Upload.terminate(unfinished.previous.uploadUrl, { retryDelays: null }).catch(() => undefined);
  }
  await removeStoredUpload(unfinished.previous);
}
