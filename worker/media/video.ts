import ffmpeg, { type FfprobeData } from 'fluent-ffmpeg';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaAbortedError, MediaContentError, throwIfAborted } from './errors';
import { resolveFfmpegPath, resolveFfprobePath } from './ffmpeg-path';
import type { OutputFile, ProgressFn } from './types';
import { renderWatermark, type WatermarkSpec } from './watermark';

/**
 * Video through ffmpeg (fluent-ffmpeg), file in, files out: H.264 (high profile, yuv420p) and
 * AAC in an MP4 whose index (moov) comes first (+faststart, so playback starts before the
 * download ends), at most 1920x1080 (or 1080x1920 upright), metadata and chapters dropped (phone
 * videos carry the place they were shot), the creator's watermark burnt in with the overlay
 * filter from the PNG sharp draws, a poster frame, and the duration.
 */

/** The x264/AAC settings of the worker; the bench runs plain ffmpeg with the same ones. */
export const VIDEO_ENCODING = [
  '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
  '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
  '-movflags', '+faststart',
] as const;

const MAX_LONG_SIDE = 1920;
const MAX_SHORT_SIDE = 1080;
/** A job that runs longer than this is stopped and the post fails (a 100 MB video takes a few minutes). */
const TRANSCODE_TIMEOUT_S = 30 * 60;

export interface ProbedStream {
  codec: string;
  width?: number;
  height?: number;
  /** clockwise degrees the player turns the picture (phone videos) */
  rotation: number;
}

export interface Probe {
  durationSeconds: number;
  video: ProbedStream | null;
  audio: { codec: string } | null;
  formatName: string;
}

/** ffprobe; a file it cannot read is a damaged upload (MediaContentError). */
export async function probe(file: string, what = 'video'): Promise<Probe> {
  const data = await new Promise<FfprobeData>((resolve, reject) => {
    ffmpeg(file)
      .setFfprobePath(resolveFfprobePath())
      .ffprobe((error: Error | null, result: FfprobeData) => (error ? reject(error) : resolve(result)));
  }).catch((error: Error) => {
    // a missing ffprobe is our problem (retried); anything else it says is about the file
    if (/spawn|Cannot find ffprobe/i.test(error.message)) throw error;
    throw new MediaContentError(UPLOAD_TEXTS.damaged(what));
  });
  const video = data.streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format.duration ?? video?.duration ?? audio?.duration ?? NaN);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    video: video
      ? {
          codec: video.codec_name ?? 'unknown',
          width: video.width,
          height: video.height,
          rotation: rotationOf(video as unknown as Record<string, unknown>),
        }
      : null,
    audio: audio ? { codec: audio.codec_name ?? 'unknown' } : null,
    formatName: data.format.format_name ?? '',
  };
}

function rotationOf(stream: Record<string, unknown>): number {
  const sideData = (stream.side_data_list as { rotation?: number | string }[] | undefined) ?? [];
  const fromSide = sideData.find((d) => d.rotation !== undefined)?.rotation;
  const fromTag = (stream.tags as { rotate?: string } | undefined)?.rotate;
  const degrees = Number(fromSide ?? fromTag ?? 0);
  return Number.isFinite(degrees) ? ((Math.round(degrees) % 360) + 360) % 360 : 0;
}

/** The output size: the displayed size (after rotation) scaled down to fit 1920x1080, even numbers. */
export function outputSize(video: ProbedStream): { width: number; height: number } {
  let width = video.width ?? 0;
  let height = video.height ?? 0;
  if (video.rotation === 90 || video.rotation === 270) [width, height] = [height, width];
  const [maxW, maxH] = width >= height ? [MAX_LONG_SIDE, MAX_SHORT_SIDE] : [MAX_SHORT_SIDE, MAX_LONG_SIDE];
  const scale = Math.min(1, maxW / width, maxH / height);
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return { width: even(width * scale), height: even(height * scale) };
}

export interface ProcessVideoOptions {
  input: string;
  workDir: string;
  watermark: WatermarkSpec | null;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
}

export async function processVideo(opts: ProcessVideoOptions): Promise<OutputFile[]> {
  const probed = await probe(opts.input);
  if (!probed.video || !probed.video.width || !probed.video.height) throw new MediaContentError(UPLOAD_TEXTS.noVideoStream);
  if (!(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
  throwIfAborted(opts.signal);

  const size = outputSize(probed.video);
  const output = path.join(opts.workDir, 'original.mp4');
  let watermarkFile: string | null = null;
  let overlay = { x: '0', y: '0' };
  if (opts.watermark) {
    const mark = await renderWatermark(opts.watermark, size.width, size.height);
    watermarkFile = path.join(opts.workDir, 'watermark.png');
    await writeFile(watermarkFile, mark.png);
    overlay = mark.overlay;
  }
  const upright = probed.video.rotation === 90 || probed.video.rotation === 270;
  const [shownWidth, shownHeight] = upright ? [probed.video.height, probed.video.width] : [probed.video.width, probed.video.height];
  const scale = shownWidth !== size.width || shownHeight !== size.height;
  await transcode({ ...opts, output, size, scale, watermarkFile, overlay, durationSeconds: probed.durationSeconds });

  const result = await probe(output);
  if (!result.video) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
  const poster = await extractPoster(output, opts.workDir, result.durationSeconds);
  return [
    {
      variant: 'original',
      path: output,
      ext: 'mp4',
      contentType: 'video/mp4',
      width: result.video.width,
      height: result.video.height,
      durationSeconds: round3(result.durationSeconds),
    },
    poster,
  ];
}

interface TranscodeArgs extends ProcessVideoOptions {
  output: string;
  /** false when the picture already has the output size */
  scale: boolean;
  size: { width: number; height: number };
  watermarkFile: string | null;
  overlay: { x: string; y: string };
  durationSeconds: number;
}

/**
 * The filter graph: scale when the size changes (ffmpeg applies the rotation first), then the
 * watermark on top, blended in yuv420 (format=auto would pick RGB for the PNG and convert every
 * frame there and back, a third slower), output yuv420p (what every player decodes).
 */
export function videoFilterGraph(size: { width: number; height: number }, overlay: { x: string; y: string } | null, scale = true): string {
  const base = scale ? `[0:v]scale=${size.width}:${size.height}:flags=bicubic,setsar=1` : '[0:v]setsar=1';
  return overlay ? `${base}[base];[base][1:v]overlay=x=${overlay.x}:y=${overlay.y}:format=yuv420,format=yuv420p[vout]` : `${base},format=yuv420p[vout]`;
}

function transcode(args: TranscodeArgs): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const command = ffmpeg(args.input, { timeout: TRANSCODE_TIMEOUT_S }).setFfmpegPath(resolveFfmpegPath());
    if (args.watermarkFile) command.input(args.watermarkFile);
    command
      .complexFilter(videoFilterGraph(args.size, args.watermarkFile ? args.overlay : null, args.scale))
      .outputOptions([
        '-map', '[vout]', '-map', '0:a:0?',
        ...VIDEO_ENCODING,
        '-map_metadata', '-1', '-map_chapters', '-1', '-sn', '-dn',
        '-max_muxing_queue_size', '1024',
      ])
      .format('mp4');

    let lastPercent = -1;
    command.on('progress', (progress: { timemark?: string }) => {
      const seconds = timemarkSeconds(progress.timemark);
      if (seconds === null || !args.onProgress) return;
      const percent = Math.min(99, Math.floor((seconds / args.durationSeconds) * 100));
      if (percent > lastPercent) {
        lastPercent = percent;
        args.onProgress(percent);
      }
    });
    const onAbort = () => command.kill('SIGKILL');
    args.signal?.addEventListener('abort', onAbort, { once: true });
    command.on('end', () => {
      args.signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    command.on('error', (error: Error, _stdout: string | null, stderr: string | null) => {
      args.signal?.removeEventListener('abort', onAbort);
      if (args.signal?.aborted) return reject(new MediaAbortedError('aborted'));
      reject(classifyFfmpegError(error, stderr, 'video'));
    });
    command.save(args.output);
  });
}

/**
 * ffmpeg failing on a file ffprobe could read means the file is damaged (a content error);
 * a missing binary, a full disk or a kill by the system are ours (retried).
 */
export function classifyFfmpegError(error: Error, stderr: string | null, what: string): Error {
  const text = `${error.message}\n${stderr ?? ''}`;
  if (/timeout/i.test(error.message)) return new MediaContentError(`The ${what} took too long to process.`);
  if (/ENOSPC|No space left|Cannot allocate memory|ENOMEM|spawn|ENOENT.*ffmpeg|killed with signal/i.test(text)) {
    return new Error(`ffmpeg failed: ${error.message}`);
  }
  return new MediaContentError(UPLOAD_TEXTS.damaged(what));
}

function timemarkSeconds(mark: string | undefined): number | null {
  const match = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(mark ?? '');
  if (!match) return null;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A frame one second in (or a third of the way through a shorter video), re-encoded by sharp. */
async function extractPoster(video: string, workDir: string, durationSeconds: number): Promise<OutputFile> {
  const at = Math.min(1, durationSeconds / 3);
  const frame = path.join(workDir, 'frame.png');
  await new Promise<void>((resolve, reject) => {
    ffmpeg(video)
      .setFfmpegPath(resolveFfmpegPath())
      .seekInput(at.toFixed(3))
      .outputOptions(['-frames:v', '1'])
      .on('end', () => resolve())
      .on('error', (error: Error, _o: string | null, stderr: string | null) => reject(classifyFfmpegError(error, stderr, 'video')))
      .save(frame);
  });
  const out = path.join(workDir, 'poster.jpg');
  const info = await sharp(frame).jpeg({ quality: 82, progressive: true }).toFile(out);
  return { variant: 'poster', path: out, ext: 'jpg', contentType: 'image/jpeg', width: info.width, height: info.height };
}
