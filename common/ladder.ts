/**
 * The HLS ladder of a video (docs/media.md): what the worker stores for each video file and the
 * server builds each viewer's playlists from. Names of files are relative to the ladder
 * (`360/seg_000.m4s`); the storage key of each is in the row (`storage_keys` holds them all).
 */

/** The rungs made, by output height; none taller than the source's own picture. */
export const LADDER_HEIGHTS = [360, 720, 1080] as const;

/** The segments' target length in seconds (keyframes every this, aligned across rungs). */
export const SEGMENT_SECONDS = 2;

export interface LadderSegment {
  /** the file's name in the ladder, e.g. `360/seg_003.m4s` */
  file: string;
  /** its storage key */
  key: string;
  /** seconds, as the muxer wrote in its EXTINF */
  duration: number;
}

export interface LadderRendition {
  /** the rung's name and folder: its height, e.g. '360' */
  name: string;
  width: number;
  height: number;
  /** peak bits per second (EXT-X-STREAM-INF BANDWIDTH) */
  bandwidth: number;
  /** RFC 6381 codecs of video and audio, e.g. 'avc1.64001e,mp4a.40.2' */
  codecs: string;
  /** the fMP4 initialisation segment */
  init: { file: string; key: string };
  targetDuration: number;
  segments: LadderSegment[];
  /**
   * Variant B of every segment (a paid video's forensic mark, docs/media.md): segment i of
   * `segments` is variant A, `variantB.segments[i]` the same instant in variant B. Absent for a
   * free video, a chat video and a ladder made before the mark.
   */
  variantB?: { init: { file: string; key: string }; segments: LadderSegment[] };
}

export interface LadderThumbnails {
  /** the sprite JPEG: tiles of `tileWidth` x `tileHeight`, `columns` a row */
  sprite: { file: string; key: string };
  tileWidth: number;
  tileHeight: number;
  columns: number;
  /** seconds each tile stands for */
  interval: number;
  count: number;
}

/** The heights of the rungs for a picture of `height` lines: every standard one up to it, or the source's own when it is below the lowest. */
export function ladderHeights(height: number): number[] {
  const fitting = LADDER_HEIGHTS.filter((h) => h <= height);
  return fitting.length > 0 ? fitting : [Math.max(2, Math.floor(height / 2) * 2)];
}

/** The master playlist's URL of a post's video (its `position`-th file). */
export const ladderMasterUrl = (postId: string, position = 0) => `/hls/${postId}/${position}/master.m3u8`;

/**
 * Where a ladder's file is stored: fixed per post, file and name (not per run), so a retry
 * overwrites what a dead run left, and the segment route finds a signed file without a query.
 */
export const ladderKey = (postId: string, position: number, file: string) => `posts/${postId}/hls/${position}/${file}`;

/** The type a ladder's file is served with, by its name. */
export function ladderFileType(file: string): string | null {
  if (file.endsWith('.m4s')) return 'video/iso.segment';
  if (file.endsWith('.mp4')) return 'video/mp4';
  if (file.endsWith('.jpg')) return 'image/jpeg';
  return null;
}
