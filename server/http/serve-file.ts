import type { Request, Response } from 'express';
import { downloadFileName } from '../../common/media';
import type { AppDeps } from '../../core/deps';
import { sessionTokenOf } from '../auth/cookies';
import { redirectToObject } from './media-redirect';
import { pipeToClient } from './pipe-to-client';
import { RangeNotSatisfiableError, StorageNotFoundError, type ByteRange } from '../../core/storage/storage';

/**
 * How long a browser may reuse media without asking again (premium: a lapsed subscription shows
 * within this; a free post's bytes were the viewer's to see when they were fetched).
 */
const PRIVATE_MAX_AGE_S = 600;
/**
 * How long a shared cache (a CDN or proxy in front of the app) may serve a free post's media
 * without asking again, and it must ask then (`proxy-revalidate`: never served stale, not even
 * when the app is unreachable). Asking again runs the access check (the one query of every media
 * request) and costs a 304 with no body while the post is still free and public; once it is
 * premium, private or deleted the answer is 403 or 404 and the cache's copy is gone. So access
 * that ends leaves every shared cache within this (docs/operations.md).
 */
export const SHARED_CACHE_S = 60;
// no-transform: compression must never re-encode a media body (it would break ranges)
const PRIVATE_CACHE_CONTROL = `private, max-age=${PRIVATE_MAX_AGE_S}, no-transform`;
const SHARED_CACHE_CONTROL = `public, max-age=${PRIVATE_MAX_AGE_S}, s-maxage=${SHARED_CACHE_S}, proxy-revalidate, no-transform`;

/**
 * May a shared cache keep this answer? Only a free post of a public creator (`file.shared`), asked
 * for without a session cookie, and with no cookie set on the answer (the session is resolved
 * before this: a dead cookie is cleared, one near its end renewed, and a stored Set-Cookie would
 * hand that browser's session to everyone). Any other answer is `private`.
 */
export function sharedAnswer(req: Request, res: Response, file: MediaFileToServe): boolean {
  return file.shared && !res.hasHeader('set-cookie') && sessionTokenOf(req.headers.cookie) === null;
}

export interface MediaFileToServe {
  fileId: string;
  storageKey: string;
  contentType: string;
  byteSize: number;
  /** what the post is called (postName), for a download's file name */
  name: string;
  postId: string;
  /**
   * Is it the same for everyone? Only free posts of public creators; premium media and media of
   * creators who are not public are `private` (the answer depends on who asks). A shared cache
   * keeps it only briefly, and only when it was asked for without a session (`sharedAnswer`).
   */
  shared: boolean;
}

/** A refusal of a media request, never cached (404 and 403 depend on who asks). */
export function refuseMedia(res: Response, status: number, error: Record<string, string>) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error });
}

/**
 * Streams one stored file to a client that may have it (the caller checked access): the media
 * routes of posts and of chat attachments, and a report's evidence, alike. With an object store,
 * redirects to a presigned URL of it instead (media-redirect.ts).
 */
export async function serveFile(deps: AppDeps, req: Request, res: Response, file: MediaFileToServe) {
  const name = downloadFileName(file.name, file.contentType, file.postId);
  const disposition = `${req.query.download === '1' || req.query.download === 'true' ? 'attachment' : 'inline'}; filename="${name}"`;
  if (deps.storage.signedUrl) {
    return redirectToObject(deps.config, deps.storage.signedUrl.bind(deps.storage), res, file, disposition, sharedAnswer(req, res, file));
  }
  const etag = `"${file.fileId}-${file.byteSize}"`;
  const range = mediaHeadersAndRange(req, res, etag, file.byteSize, sharedAnswer(req, res, file) ? SHARED_CACHE_CONTROL : PRIVATE_CACHE_CONTROL);
  if (range === 'answered') return;

  let object;
  try {
    object = await deps.storage.get(file.storageKey, range ?? undefined);
  } catch (error) {
    if (error instanceof RangeNotSatisfiableError) return rangeNotSatisfiable(res, error.size);
    if (error instanceof StorageNotFoundError) {
      deps.log.error({ postId: file.postId, key: file.storageKey }, 'media row points at a missing file');
      return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
    }
    throw error;
  }

  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', disposition);
  if (object.range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
    res.setHeader('Content-Length', String(object.range.end - object.range.start + 1));
  } else {
    res.status(200);
    res.setHeader('Content-Length', String(object.size));
  }
  if (req.method === 'HEAD') {
    object.stream.destroy();
    res.end();
    return;
  }
  // a viewer seeking in a video aborts requests all the time
  await pipeToClient(object.stream, res);
}

/**
 * A body made for this viewer alone (a paid picture with the buyer's mark: docs/media.md), with the
 * same headers as a stored file's but never shared (`private`) and never redirected to a store:
 * ETag/304 and a single Range work as for `serveFile`.
 */
export function serveBytes(req: Request, res: Response, file: Pick<MediaFileToServe, 'name' | 'contentType' | 'postId'>, bytes: Buffer, etag: string) {
  const name = downloadFileName(file.name, file.contentType, file.postId);
  const range = mediaHeadersAndRange(req, res, etag, bytes.length, PRIVATE_CACHE_CONTROL);
  if (range === 'answered') return;
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `${req.query.download === '1' || req.query.download === 'true' ? 'attachment' : 'inline'}; filename="${name}"`);
  let body = bytes;
  if (range) {
    const end = Math.min(range.end ?? bytes.length - 1, bytes.length - 1);
    body = bytes.subarray(range.start, end + 1);
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${end}/${bytes.length}`);
  } else {
    res.status(200);
  }
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The headers every media body carries, then the answer to If-None-Match (304) and to a Range
 * that cannot be met (416): 'answered' when one of those was sent, else the range asked for.
 */
function mediaHeadersAndRange(req: Request, res: Response, etag: string, size: number, cacheControl: string) {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Accept-Ranges', 'bytes');
  // The body is user content: nothing in it may run or load anything; our own pages may frame it (PDF viewer).
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'");
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return 'answered' as const;
  }
  // If-Range with another validator: the client's partial copy is stale, send everything.
  const ifRange = req.headers['if-range'];
  const range = parseRange(ifRange === undefined || ifRange === etag ? req.headers.range : undefined, size);
  if (range === 'unsatisfiable') {
    rangeNotSatisfiable(res, size);
    return 'answered' as const;
  }
  return range;
}

function rangeNotSatisfiable(res: Response, size: number) {
  res.setHeader('Content-Range', `bytes */${size}`);
  res.setHeader('Cache-Control', 'no-store');
  res.status(416).end();
}

/** If-None-Match: a list of (possibly weak) tags or `*`. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * One byte range of `Range: bytes=...` (RFC 9110 §14.1.2): `a-b`, `a-` or `-n`. Null means
 * "send the whole file" (no header, another unit, several ranges, or a malformed value, which
 * a server may ignore); 'unsatisfiable' means 416 (starts past the end, ends before it starts,
 * or an empty suffix).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? undefined : Number(last);
  if (!Number.isSafeInteger(start) || (end !== undefined && !Number.isSafeInteger(end))) return 'unsatisfiable';
  if (start >= size || (end !== undefined && end < start)) return 'unsatisfiable';
  return { start, ...(end !== undefined && { end }) };
}
