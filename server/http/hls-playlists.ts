import type { Request, Response, Router } from 'express';
import { ladderFileType, type LadderRendition, type LadderThumbnails } from '../../common/ladder';
import { StorageNotFoundError, type Storage } from '../../core/storage/storage';
import type { MarkVariant } from '../../domain/forensics/code';
import type { StoredLadder } from '../../domain/streaming/ladders.queries';
import { pipeToClient } from './pipe-to-client';
import { refuseMedia } from './serve-file';

/**
 * A viewer's HLS playlists (docs/media.md), made on each request after the access check: the
 * master lists the rungs (lowest first: a fast start), each media playlist lists its init segment
 * and segments as URLs for this viewer that expire in HLS_URL_TTL_S; the thumbnail track names the
 * sprite the same way. Pure text from the ladder's row; nothing is cached between viewers. Shared
 * by a post's video (features/posts/hls.http.ts) and a chat video (features/messages/message-hls.http.ts).
 */

/** How a file of the ladder is named in a playlist: a URL signed by the server, or (object store) presigned. */
export type FileUrl = (file: string, key: string, contentType: string) => Promise<string>;

export function masterPlaylist(renditions: LadderRendition[], mediaUrl: (name: string) => string): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const r of [...renditions].sort((a, b) => a.bandwidth - b.bandwidth)) {
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth},RESOLUTION=${r.width}x${r.height},CODECS="${r.codecs}"`, mediaUrl(r.name));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A rung's media playlist. With `variantOf` (a paid video's marked playlist, docs/media.md), segment
 * i is variant A or B as it says; an init segment is named again (EXT-X-MAP) only where the
 * variant's differs from the one before (the worker stores one when they are the same bytes).
 */
export async function mediaPlaylist(r: LadderRendition, url: FileUrl, variantOf?: (segment: number) => MarkVariant): Promise<string> {
  const b = variantOf ? r.variantB : undefined;
  const pick = (i: number) => (b && variantOf!(i) === 'b' ? { init: b.init, segment: b.segments[i]! } : { init: r.init, segment: r.segments[i]! });
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.max(r.targetDuration, Math.ceil(Math.max(...r.segments.map((s) => s.duration))))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  let init: string | null = null;
  for (let i = 0; i < r.segments.length; i++) {
    const chosen = pick(i);
    if (chosen.init.file !== init) {
      lines.push(`#EXT-X-MAP:URI="${await url(chosen.init.file, chosen.init.key, 'video/mp4')}"`);
      init = chosen.init.file;
    }
    lines.push(`#EXTINF:${chosen.segment.duration.toFixed(3)},`, await url(chosen.segment.file, chosen.segment.key, 'video/iso.segment'));
  }
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/** The seek previews as WebVTT: a cue per tile, naming its place in the sprite (#xywh). */
export async function thumbnailTrack(t: LadderThumbnails, durationSeconds: number, url: FileUrl): Promise<string> {
  const sprite = await url(t.sprite.file, t.sprite.key, 'image/jpeg');
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < t.count; i++) {
    const start = i * t.interval;
    const end = Math.min((i + 1) * t.interval, Math.max(durationSeconds, start + 0.001));
    const x = (i % t.columns) * t.tileWidth;
    const y = Math.floor(i / t.columns) * t.tileHeight;
    lines.push(`${vttTime(start)} --> ${vttTime(end)}`, `${sprite}#xywh=${x},${y},${t.tileWidth},${t.tileHeight}`, '');
  }
  return lines.join('\n');
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * The URL a viewer's playlist gives a file: with an object store, presigned per file for the
 * playlist's lifetime (its bytes never pass through this process; the URL does not name the
 * viewer, a store cannot check a session); else signed by the server for this viewer.
 */
export function fileUrlFor(
  opts: { storage: Pick<Storage, 'signedUrl'>; ttlS: number; nowMs: number },
  /** the server's URL of a file for this viewer until `expires` (segment-urls.ts) */
  signed: (file: string, expires: number) => string,
): FileUrl {
  const expires = Math.floor(opts.nowMs / 1000) + opts.ttlS;
  const signedUrl = opts.storage.signedUrl?.bind(opts.storage);
  if (signedUrl) {
    return (_file, key, contentType) =>
      signedUrl(key, { expiresInS: opts.ttlS, contentType, cacheControl: `private, max-age=${opts.ttlS}` });
  }
  return (file) => Promise.resolve(signed(file, expires));
}

/** Playlists are made per viewer per request: never stored by anyone. */
export function noStore(res: Response) {
  res.setHeader('Cache-Control', 'private, no-store');
}

export function sendPlaylist(res: Response, type: string, body: string) {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(200).send(body);
}

/** A ladder's file after its signed URL was checked: private to the viewer's browser while the URL is valid. */
export function ladderFileHeaders(res: Response, contentType: string, size: number, maxAgeS: number) {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(size));
  // the viewer's browser may keep it while the URL is valid; nothing shared may
  res.setHeader('Cache-Control', `private, max-age=${Math.max(0, maxAgeS)}, no-transform`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'");
}

/**
 * A ladder's file after its signed URL and its viewer were checked: the type follows from the
 * name (no query per segment), 404 for a name or object that is not there.
 */
export async function sendLadderFile(storage: Pick<Storage, 'get'>, res: Response, file: string, key: string, maxAgeS: number) {
  const contentType = ladderFileType(file);
  if (!contentType) return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
  let object;
  try {
    object = await storage.get(key);
  } catch (error) {
    if (error instanceof StorageNotFoundError) return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
    throw error;
  }
  ladderFileHeaders(res, contentType, object.size, maxAgeS);
  await pipeToClient(object.stream, res);
}

/** What a playlist request may see: the ladder, how its files and media playlists are named for this viewer. */
export interface PlaylistAccess {
  ladder: StoredLadder;
  fileUrl: FileUrl;
  mediaPlaylistUrl: (rendition: string) => string;
  /**
   * A marked playlist (a paid video's viewer who is not its owner): each segment's variant by the
   * viewer's code, and `issued`, which records the viewer as a trace's candidate before the
   * playlist is sent.
   */
  marked?: { variantOf: (segment: number) => MarkVariant; issued: () => Promise<void> };
}

/**
 * The three playlists of a ladder under `base` (master, each rendition's, the thumbnail track),
 * each made after `allowed`, which answers a refusal itself and returns null then.
 */
export function playlistRoutes(router: Router, base: string, allowed: (req: Request, res: Response) => Promise<PlaylistAccess | null>): void {
  router.get(`${base}/master.m3u8`, async (req, res) => {
    const a = await allowed(req, res);
    if (!a) return;
    sendPlaylist(res, 'application/vnd.apple.mpegurl', masterPlaylist(a.ladder.renditions, a.mediaPlaylistUrl));
  });
  router.get(`${base}/thumbs.vtt`, async (req, res) => {
    const a = await allowed(req, res);
    if (!a) return;
    if (!a.ladder.thumbnails) return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
    const durationSeconds = a.ladder.renditions[0]!.segments.reduce((sum, s) => sum + s.duration, 0);
    sendPlaylist(res, 'text/vtt', await thumbnailTrack(a.ladder.thumbnails, durationSeconds, a.fileUrl));
  });
  router.get(`${base}/:rendition.m3u8`, async (req, res) => {
    const a = await allowed(req, res);
    if (!a) return;
    const rendition = a.ladder.renditions.find((r) => r.name === req.params.rendition);
    if (!rendition) return refuseMedia(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
    // recorded before the playlist leaves: a viewer who has a marked copy is always a candidate
    if (a.marked && rendition.variantB) await a.marked.issued();
    sendPlaylist(res, 'application/vnd.apple.mpegurl', await mediaPlaylist(rendition, a.fileUrl, a.marked?.variantOf));
  });
}
