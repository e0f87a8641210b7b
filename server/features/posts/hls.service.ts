import type { LadderRendition, LadderThumbnails } from '../../../common/ladder';
import type { Storage } from '../../../core/storage/storage';
import { segmentUrl } from '../../http/segment-urls';

/**
 * A viewer's HLS playlists (docs/media.md), made on each request after the access check: the
 * master lists the rungs (lowest first: a fast start), each media playlist lists its init segment
 * and segments as URLs for this viewer that expire in HLS_URL_TTL_S; the thumbnail track names the
 * sprite the same way. Pure text from the ladder's row; nothing is cached between viewers.
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

export async function mediaPlaylist(r: LadderRendition, url: FileUrl): Promise<string> {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${Math.max(r.targetDuration, Math.ceil(Math.max(...r.segments.map((s) => s.duration))))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${await url(r.init.file, r.init.key, 'video/mp4')}"`,
  ];
  for (const s of r.segments) lines.push(`#EXTINF:${s.duration.toFixed(3)},`, await url(s.file, s.key, 'video/iso.segment'));
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
  opts: { key: Buffer; storage: Pick<Storage, 'signedUrl'>; ttlS: number; nowMs: number },
  claim: { viewer: string; postId: string; position: number },
): FileUrl {
  const expires = Math.floor(opts.nowMs / 1000) + opts.ttlS;
  const signedUrl = opts.storage.signedUrl?.bind(opts.storage);
  if (signedUrl) {
    return (_file, key, contentType) =>
      signedUrl(key, { expiresInS: opts.ttlS, contentType, cacheControl: `private, max-age=${opts.ttlS}` });
  }
  return (file) => Promise.resolve(segmentUrl(opts.key, { ...claim, file, expires }));
}
