import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MEDIA_LIMITS, type MediaBounds } from '../../common/limits';
import { UPLOAD_TEXTS } from '../../common/texts';
import { checkVideoBounds, maxFrames, remainingMs, videoTimeLimitMs, videoWork } from './bounds';
import { MediaContentError, throwIfAborted } from './errors';
import { extOf, smallerOfWebpAndJpeg } from './image';
import type { Demuxer } from './ffmpeg-input';
import { classifyFfmpegFailure, runFfmpeg, type FfmpegJob } from './ffmpeg-run';
import { probe, type ProbedVideoStream } from './probe';
import type { OutputFile, ProgressFn } from './types';
import { renderWatermark, type WatermarkSpec } from './watermark';

/**
 * Video through ffmpeg (fluent-ffmpeg, via ffmpeg-run.ts), file in, files out: H.264 (high
 * profile, yuv420p) and AAC in an MP4 whose index (moov) comes first (+faststart, so playback
 * starts before the download ends), at most 1920x1080 (or 1080x1920 upright), metadata and
 * chapters dropped (phone videos carry the place they were shot), the creator's watermark burnt in
 * with the overlay filter from the PNG sharp draws, a poster frame, and the duration. Every input
 * is opened as ffmpeg-input.ts says, and what is not worth transcoding is refused first (bounds.ts).
 */

/** The x264/AAC settings of the worker; the bench runs plain ffmpeg with the same ones. */
export const VIDEO_ENCODING = [
  '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
  '-c:a', 'aac', '-b:a', '128k', '-ac', '2',
  '-movflags', '+faststart',
] as const;

const MAX_LONG_SIDE = 1920;
const MAX_SHORT_SIDE = 1080;
/** Our own output is re-probed and a poster taken from it: quick, whatever the upload was. */
const OUTPUT_STEP_TIMEOUT_MS = 60_000;

/** The output size: the displayed size (after rotation) scaled down to fit 1920x1080, even numbers. */
export function outputSize(video: Pick<ProbedVideoStream, 'width' | 'height' | 'rotation'>): { width: number; height: number } {
  let width = video.width;
  let height = video.height;
  if (video.rotation === 90 || video.rotation === 270) [width, height] = [height, width];
  const [maxW, maxH] = width >= height ? [MAX_LONG_SIDE, MAX_SHORT_SIDE] : [MAX_SHORT_SIDE, MAX_LONG_SIDE];
  const scale = Math.min(1, maxW / width, maxH / height);
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return { width: even(width * scale), height: even(height * scale) };
}

export interface ProcessVideoOptions {
  /** absolute path of the upload */
  input: string;
  /** from the sniffed type (ffmpeg-input.ts): never ffmpeg's own guess */
  demuxer: Demuxer;
  workDir: string;
  watermark: WatermarkSpec | null;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** MEDIA_TIME_LIMIT_SCALE: stretches the time limit (bounds.ts) */
  timeLimitScale?: number;
  /** MEDIA_LIMITS (posts) or CHAT_MEDIA_LIMITS */
  limits?: MediaBounds;
}

export async function processVideo(opts: ProcessVideoOptions): Promise<OutputFile[]> {
  const probed = await probe(opts.input, opts.demuxer, 'video', opts.signal);
  const limits = opts.limits ?? MEDIA_LIMITS;
  const video = checkVideoBounds(probed, limits);
  throwIfAborted(opts.signal);
  const size = outputSize(video);
  const deadline = Date.now() + videoTimeLimitMs(videoWork(probed, video, size, limits), opts.timeLimitScale);

  const output = path.join(opts.workDir, 'original.mp4');
  let watermarkFile: string | null = null;
  let overlay = { x: '0', y: '0' };
  if (opts.watermark) {
    const mark = await renderWatermark(opts.watermark, size.width, size.height);
    watermarkFile = path.join(opts.workDir, 'watermark.png');
    await writeFile(watermarkFile, mark.png);
    overlay = mark.overlay;
  }
  const upright = video.rotation === 90 || video.rotation === 270;
  const [shownWidth, shownHeight] = upright ? [video.height, video.width] : [video.width, video.height];
  const scale = shownWidth !== size.width || shownHeight !== size.height;
  await transcode({ ...opts, output, size, scale, watermarkFile, overlay, durationSeconds: probed.durationSeconds, deadline });

  const result = await probe(output, 'mov', 'video', opts.signal);
  const produced = result.videoStreams[0];
  if (!produced) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
  const poster = await extractPoster(output, opts.workDir, result.durationSeconds, Math.min(OUTPUT_STEP_TIMEOUT_MS, remainingMs(deadline)), opts.signal);
  return [
    {
      variant: 'original',
      path: output,
      ext: 'mp4',
      contentType: 'video/mp4',
      width: produced.width,
      height: produced.height,
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
  /** Date.now() past which ffmpeg is killed */
  deadline: number;
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

/** The ffmpeg run of the transcode (exported for its test). */
export function transcodeJob(args: Pick<TranscodeArgs, 'input' | 'demuxer' | 'output' | 'size' | 'scale' | 'watermarkFile' | 'overlay' | 'limits'>): FfmpegJob {
  const limits = args.limits ?? MEDIA_LIMITS;
  return {
    inputs: [{ file: args.input, demuxer: args.demuxer }, ...(args.watermarkFile ? [{ file: args.watermarkFile, demuxer: 'png_pipe' as const }] : [])],
    options: [
      '-filter_complex', videoFilterGraph(args.size, args.watermarkFile ? args.overlay : null, args.scale),
      '-map', '[vout]', '-map', '0:a:0?',
      ...VIDEO_ENCODING,
      '-map_metadata', '-1', '-map_chapters', '-1', '-sn', '-dn',
      '-max_muxing_queue_size', '1024',
      // whatever the header said, never more than the longest video accepted, nor more frames
      '-t', String(limits.videoMaxMinutes * 60),
      '-frames:v', String(maxFrames(limits)),
      '-f', 'mp4',
    ],
    output: args.output,
  };
}

async function transcode(args: TranscodeArgs): Promise<void> {
  let lastPercent = -1;
  const onProgressSeconds = (seconds: number) => {
    if (!args.onProgress) return;
    const percent = Math.min(99, Math.floor((seconds / args.durationSeconds) * 100));
    if (percent > lastPercent) {
      lastPercent = percent;
      args.onProgress(percent);
    }
  };
  try {
    await runFfmpeg(transcodeJob(args), { timeoutMs: remainingMs(args.deadline), signal: args.signal, onProgressSeconds });
  } catch (error) {
    throw classifyFfmpegFailure(error, 'video');
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The ffmpeg run that takes one frame, `atSeconds` in, of our own MP4 (exported for its test). */
export function posterJob(video: string, atSeconds: number, frame: string): FfmpegJob {
  return { inputs: [{ file: video, demuxer: 'mov', seekSeconds: atSeconds }], options: ['-frames:v', '1', '-f', 'image2', '-update', '1'], output: frame };
}

/** A frame one second in (or a third of the way through a shorter video), re-encoded by sharp. */
async function extractPoster(video: string, workDir: string, durationSeconds: number, timeoutMs: number, signal?: AbortSignal): Promise<OutputFile> {
  const frame = path.join(workDir, 'frame.png');
  try {
    await runFfmpeg(posterJob(video, Math.min(1, durationSeconds / 3), frame), { timeoutMs, signal });
  } catch (error) {
    throw classifyFfmpegFailure(error, 'video');
  }
  // shown in the feed's box like a picture's display size: WebP where it is smaller
  const poster = await smallerOfWebpAndJpeg(sharp(frame), 82, true);
  const out = path.join(workDir, `poster.${extOf[poster.format]}`);
  await writeFile(out, poster.data);
  return { variant: 'poster', path: out, ext: extOf[poster.format], contentType: `image/${poster.format}`, width: poster.info.width, height: poster.info.height };
}
