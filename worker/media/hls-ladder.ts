import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_LIMITS } from '../../common/limits';
import { ladderHeights, SEGMENT_SECONDS } from '../../common/ladder';
import { UPLOAD_TEXTS } from '../../common/texts';
import { checkVideoBounds, decodedFrames, ladderTimeLimitMs, remainingMs } from './bounds';
import { MediaContentError, throwIfAborted } from './errors';
import { classifyFfmpegFailure, runFfmpeg, type FfmpegJob } from './ffmpeg-run';
import { applyMarkFilter, markSourceFilter, variantBName } from './forensic-mark';
import { probe } from './probe';

/**
 * The HLS ladder of a video (docs/media.md), made from the MP4 the worker made of the upload
 * (video.ts): that file is our own (H.264, at most 1080p, the creator's watermark burnt in, no
 * metadata), so every rung carries the watermark as the MP4 does, scaled with the picture, and
 * existing posts (the backfill) go through the same code as new ones. Still opened as any input
 * is (ffmpeg-input.ts: demuxer forced, file protocol only) and bounded (bounds.ts).
 *
 * One ffmpeg run decodes once and encodes every rung (split filter), keyframes forced every
 * SEGMENT_SECONDS on the same timestamps so segments align across rungs and hls.js can switch at
 * any boundary; fMP4 segments (`-hls_segment_type fmp4`), AAC stereo in each rung. A second short
 * run draws the thumbnail strip (one sprite JPEG) for seek previews.
 */

/** Capped CRF per rung: quality where the picture is easy, never more than this peak (a fan on 1.5 Mbit/s plays 360p). */
const MAX_RATE_KBPS: Record<number, number> = { 360: 900, 720: 2800, 1080: 5500 };
const maxRateKbps = (shortSide: number) => MAX_RATE_KBPS[shortSide] ?? Math.max(300, Math.round((shortSide / 360) * 900));

const THUMB_WIDTH = 160;
const THUMB_COLUMNS = 10;
/** at most this many tiles: a long video gets a tile every few seconds instead */
const THUMB_MAX = 100;

export interface LadderRung {
  name: string;
  width: number;
  height: number;
  maxRateKbps: number;
}

export interface MadeFile {
  /** relative to the ladder, e.g. `360/seg_000.m4s` */
  file: string;
  path: string;
  contentType: string;
}

export interface MadeRendition {
  name: string;
  width: number;
  height: number;
  bandwidth: number;
  codecs: string;
  init: string;
  targetDuration: number;
  segments: { file: string; duration: number }[];
  /** variant B of the forensic mark (a paid video): the same segments, cut at the same times */
  variantB?: { init: string; segments: { file: string; duration: number }[] };
}

export interface MadeLadder {
  renditions: MadeRendition[];
  thumbnails: { sprite: string; tileWidth: number; tileHeight: number; columns: number; interval: number; count: number } | null;
  files: MadeFile[];
}

export interface MakeLadderOptions {
  /** absolute path of our own MP4 */
  input: string;
  workDir: string;
  signal?: AbortSignal;
  timeLimitScale?: number;
  /** a paid video: every rung also in variant B of the forensic mark (A carries the opposite mark) */
  forensicMark?: boolean;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The rungs for a picture of this displayed size: short side 360/720/1080 up to the picture's own, the long side in proportion. */
export function ladderRungs(width: number, height: number): LadderRung[] {
  const short = Math.min(width, height);
  return ladderHeights(short).map((side) => {
    const long = even((Math.max(width, height) * side) / short);
    const [w, h] = width >= height ? [long, side] : [side, long];
    return { name: String(side), width: w, height: h, maxRateKbps: maxRateKbps(side) };
  });
}

/**
 * The ffmpeg run that makes every rung (exported for its test). With `mark` (a paid video, at the
 * decoded picture's size), it makes every rung twice from the same decoded frames, variant A and
 * variant B of the forensic mark (forensic-mark.ts), in the same run with the same forced
 * keyframes: B's rungs are written beside A's under their own names ('360b').
 */
export function ladderJob(input: string, outDir: string, rungs: LadderRung[], withAudio: boolean, fps: number, mark?: { width: number; height: number }): FfmpegJob {
  const outputs = mark ? [...rungs, ...rungs.map((r) => ({ ...r, name: variantBName(r.name) }))] : rungs;
  const scale = (from: string, r: LadderRung, i: number) => `[${from}]scale=${r.width}:${r.height}:flags=bicubic,setsar=1,format=yuv420p[v${i}]`;
  const splitTo = (from: string, prefix: string) => `[${from}]split=${rungs.length}${rungs.map((_, i) => `[${prefix}${i}]`).join('')}`;
  const graph = mark
    ? [
        '[0:v]split=2[sa][sb]',
        markSourceFilter(mark.width, mark.height, -1, 'ma'),
        markSourceFilter(mark.width, mark.height, 1, 'mb'),
        applyMarkFilter('sa', 'ma', 'va'),
        applyMarkFilter('sb', 'mb', 'vb'),
        splitTo('va', 'a'),
        splitTo('vb', 'b'),
        ...rungs.map((r, i) => scale(`a${i}`, r, i)),
        ...rungs.map((r, i) => scale(`b${i}`, r, rungs.length + i)),
      ]
    : [splitTo('0:v', 's'), ...rungs.map((r, i) => scale(`s${i}`, r, i))];
  const gop = String(Math.max(1, Math.round(fps * SEGMENT_SECONDS)));
  return {
    inputs: [{ file: input, demuxer: 'mov' }],
    options: [
      '-filter_complex', graph.join(';'),
      ...outputs.flatMap((_, i) => ['-map', `[v${i}]`, ...(withAudio ? ['-map', '0:a:0'] : [])]),
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
      ...outputs.flatMap((r, i) => [`-maxrate:v:${i}`, `${r.maxRateKbps}k`, `-bufsize:v:${i}`, `${r.maxRateKbps * 2}k`]),
      // the same keyframe times in every rung (and both variants): a segment boundary is a switch point in all of them
      '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`, '-g', gop, '-keyint_min', gop, '-sc_threshold', '0',
      ...(withAudio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : []),
      '-map_metadata', '-1', '-map_chapters', '-1', '-sn', '-dn',
      '-t', String(MEDIA_LIMITS.videoMaxMinutes * 60),
      '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4',
      '-hls_flags', 'independent_segments', '-hls_fmp4_init_filename', 'init.mp4',
      '-hls_segment_filename', path.join(outDir, '%v', 'seg_%04d.m4s'),
      '-master_pl_name', 'master.m3u8',
      '-var_stream_map', outputs.map((r, i) => `v:${i}${withAudio ? `,a:${i}` : ''},name:${r.name}`).join(' '),
    ],
    output: path.join(outDir, '%v', 'index.m3u8'),
  };
}

/** The ffmpeg run of the thumbnail strip (exported for its test). */
export function spriteJob(input: string, output: string, tile: { width: number; height: number }, interval: number, count: number): FfmpegJob {
  const rows = Math.max(1, Math.ceil(count / THUMB_COLUMNS));
  return {
    inputs: [{ file: input, demuxer: 'mov' }],
    options: [
      '-vf', `fps=1/${interval},scale=${tile.width}:${tile.height}:flags=bicubic,tile=${THUMB_COLUMNS}x${rows}`,
      '-an', '-frames:v', '1', '-q:v', '5', '-f', 'image2', '-update', '1',
    ],
    output,
  };
}

export async function makeLadder(opts: MakeLadderOptions): Promise<MadeLadder> {
  const probed = await probe(opts.input, 'mov', 'video', opts.signal);
  const video = checkVideoBounds(probed, MEDIA_LIMITS);
  throwIfAborted(opts.signal);
  const upright = video.rotation === 90 || video.rotation === 270;
  const [width, height] = upright ? [video.height, video.width] : [video.width, video.height];
  const rungs = ladderRungs(width, height);
  const marked = opts.forensicMark === true;
  const encoded = marked ? [...rungs, ...rungs] : rungs;
  const frames = decodedFrames(probed, video, MEDIA_LIMITS);
  const deadline = Date.now() + ladderTimeLimitMs({ frames, width, height }, encoded, opts.timeLimitScale);

  const outDir = path.join(opts.workDir, 'hls');
  const folders = marked ? [...rungs.map((r) => r.name), ...rungs.map((r) => variantBName(r.name))] : rungs.map((r) => r.name);
  for (const folder of folders) await mkdir(path.join(outDir, folder), { recursive: true });
  const withAudio = probed.audioStreams.length > 0;
  try {
    await runFfmpeg(ladderJob(opts.input, outDir, rungs, withAudio, video.fps ?? 30, marked ? { width, height } : undefined), { timeoutMs: remainingMs(deadline), signal: opts.signal });
  } catch (error) {
    throw classifyFfmpegFailure(error, 'video');
  }

  const master = parseMaster(await readFile(path.join(outDir, 'master.m3u8'), 'utf8'));
  const files: MadeFile[] = [];
  /** one folder's init segment and segments, each checked on disk and listed in `files` */
  const readRendition = async (folder: string) => {
    const media = parseMediaPlaylist(await readFile(path.join(outDir, folder, 'index.m3u8'), 'utf8'));
    if (!media.init || media.segments.length === 0) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
    const names = new Set(await readdir(path.join(outDir, folder)));
    const init = `${folder}/${media.init}`;
    if (!names.has(media.init)) throw new Error(`ladder: ${init} missing`);
    files.push({ file: init, path: path.join(outDir, init), contentType: 'video/mp4' });
    for (const s of media.segments) {
      if (!names.has(s.file)) throw new Error(`ladder: ${folder}/${s.file} missing`);
      files.push({ file: `${folder}/${s.file}`, path: path.join(outDir, folder, s.file), contentType: 'video/iso.segment' });
    }
    return { init, targetDuration: media.targetDuration, segments: media.segments.map((s) => ({ file: `${folder}/${s.file}`, duration: s.duration })) };
  };
  const renditions: MadeRendition[] = [];
  for (const rung of rungs) {
    const info = master.get(`${rung.name}/index.m3u8`);
    if (!info) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
    const a = await readRendition(rung.name);
    let variantB: MadeRendition['variantB'];
    if (marked) {
      const b = await readRendition(variantBName(rung.name));
      // a playlist mixes A and B per segment: both must be cut at the same instants
      const sameCuts = b.segments.length === a.segments.length && b.segments.every((s, i) => Math.abs(s.duration - a.segments[i]!.duration) < 0.001);
      if (!sameCuts) throw new Error(`ladder: variant B of ${rung.name} is not cut as A is`);
      // the same encoder settings write the same init bytes: then B's segments follow A's init and
      // a marked playlist names one init segment (no EXT-X-MAP at each change of variant)
      const sameInit = (await readFile(path.join(outDir, a.init))).equals(await readFile(path.join(outDir, b.init)));
      if (sameInit) files.splice(files.findIndex((f) => f.file === b.init), 1);
      variantB = { init: sameInit ? a.init : b.init, segments: b.segments };
    }
    renditions.push({
      name: rung.name,
      width: info.width ?? rung.width,
      height: info.height ?? rung.height,
      bandwidth: info.bandwidth,
      codecs: info.codecs ?? (withAudio ? 'avc1.640028,mp4a.40.2' : 'avc1.640028'),
      init: a.init,
      targetDuration: a.targetDuration,
      segments: a.segments,
      ...(variantB ? { variantB } : {}),
    });
  }

  const thumbnails = await makeSprite(opts, width, height, probed.durationSeconds, deadline);
  if (thumbnails) files.push({ file: thumbnails.sprite, path: path.join(opts.workDir, thumbnails.sprite), contentType: 'image/jpeg' });
  return { renditions, thumbnails, files };
}

async function makeSprite(opts: MakeLadderOptions, width: number, height: number, durationSeconds: number, deadline: number): Promise<MadeLadder['thumbnails']> {
  const interval = Math.max(SEGMENT_SECONDS, Math.ceil(durationSeconds / THUMB_MAX));
  const count = Math.max(1, Math.ceil(durationSeconds / interval));
  const tile = { width: THUMB_WIDTH, height: even((THUMB_WIDTH * height) / width) };
  const sprite = 'thumbs.jpg';
  try {
    await runFfmpeg(spriteJob(opts.input, path.join(opts.workDir, sprite), tile, interval, count), { timeoutMs: remainingMs(deadline), signal: opts.signal });
  } catch (error) {
    throw classifyFfmpegFailure(error, 'video');
  }
  return { sprite, tileWidth: tile.width, tileHeight: tile.height, columns: THUMB_COLUMNS, interval, count };
}

interface MasterEntry {
  bandwidth: number;
  width: number | null;
  height: number | null;
  codecs: string | null;
}

/** ffmpeg's master playlist: stream URI → its EXT-X-STREAM-INF attributes. */
export function parseMaster(text: string): Map<string, MasterEntry> {
  const out = new Map<string, MasterEntry>();
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const uri = lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'));
    if (!uri) continue;
    const attrs = line.slice('#EXT-X-STREAM-INF:'.length);
    const bandwidth = Number(/(?:^|,)BANDWIDTH=(\d+)/.exec(attrs)?.[1] ?? NaN);
    const resolution = /RESOLUTION=(\d+)x(\d+)/.exec(attrs);
    const codecs = /CODECS="([^"]*)"/.exec(attrs)?.[1] ?? null;
    if (!Number.isFinite(bandwidth)) continue;
    out.set(uri, { bandwidth, width: resolution ? Number(resolution[1]) : null, height: resolution ? Number(resolution[2]) : null, codecs });
  }
  return out;
}

/** ffmpeg's media playlist: its init segment, target duration and segments (names as written, in order). */
export function parseMediaPlaylist(text: string): { init: string | null; targetDuration: number; segments: { file: string; duration: number }[] } {
  let init: string | null = null;
  let targetDuration = SEGMENT_SECONDS;
  let pending: number | null = null;
  const segments: { file: string; duration: number }[] = [];
  const plainName = /^[A-Za-z0-9_.-]+$/;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MAP:')) init = /URI="([^"]+)"/.exec(line)?.[1] ?? null;
    else if (line.startsWith('#EXT-X-TARGETDURATION:')) targetDuration = Number(line.split(':')[1]);
    else if (line.startsWith('#EXTINF:')) pending = Number.parseFloat(line.slice('#EXTINF:'.length));
    else if (line !== '' && !line.startsWith('#') && pending !== null) {
      if (!plainName.test(line)) throw new Error(`ladder: unexpected segment name ${JSON.stringify(line)}`);
      segments.push({ file: line, duration: pending });
      pending = null;
    }
  }
  if (init !== null && !plainName.test(init)) throw new Error(`ladder: unexpected init name ${JSON.stringify(init)}`);
  return { init, targetDuration, segments };
}
