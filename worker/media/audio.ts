import path from 'node:path';
import { MEDIA_LIMITS, type MediaBounds } from '../../common/limits';
import { audioTimeLimitMs, checkAudioBounds, remainingMs } from './bounds';
import { throwIfAborted } from './errors';
import type { Demuxer } from './ffmpeg-input';
import { classifyFfmpegFailure, runFfmpeg, type FfmpegJob } from './ffmpeg-run';
import { probe } from './probe';
import type { OutputFile, ProgressFn } from './types';

/**
 * Audio (mp3, wav, ogg) through ffmpeg (fluent-ffmpeg, via ffmpeg-run.ts), normalised to one
 * format every browser plays: AAC in M4A (+faststart), 192 kb/s, tags and cover art dropped (-vn,
 * -map_metadata -1), with duration. Opened as ffmpeg-input.ts says; one sound stream of a bounded
 * length only (bounds.ts).
 */
export const AUDIO_ENCODING = ['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart'] as const;

export interface ProcessAudioOptions {
  /** absolute path of the upload */
  input: string;
  /** from the sniffed type (ffmpeg-input.ts) */
  demuxer: Demuxer;
  workDir: string;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** MEDIA_TIME_LIMIT_SCALE */
  timeLimitScale?: number;
  /** MEDIA_LIMITS (posts) or CHAT_MEDIA_LIMITS */
  limits?: MediaBounds;
}

/** The ffmpeg run of the audio transcode (exported for its test). */
export function audioTranscodeJob(input: string, demuxer: Demuxer, output: string, limits: MediaBounds = MEDIA_LIMITS): FfmpegJob {
  return {
    inputs: [{ file: input, demuxer }],
    options: [
      '-map', '0:a:0', '-vn', ...AUDIO_ENCODING, '-map_metadata', '-1', '-map_chapters', '-1',
      '-t', String(limits.audioMaxMinutes * 60),
      '-f', 'ipod',
    ],
    output,
  };
}

export async function processAudio(opts: ProcessAudioOptions): Promise<OutputFile[]> {
  const probed = await probe(opts.input, opts.demuxer, 'audio file', opts.signal);
  const limits = opts.limits ?? MEDIA_LIMITS;
  checkAudioBounds(probed, limits);
  throwIfAborted(opts.signal);
  const deadline = Date.now() + audioTimeLimitMs(probed.durationSeconds, opts.timeLimitScale);
  const output = path.join(opts.workDir, 'original.m4a');
  let lastPercent = -1;
  const onProgressSeconds = (seconds: number) => {
    const percent = Math.min(99, Math.floor((seconds / probed.durationSeconds) * 100));
    if (opts.onProgress && percent > lastPercent) {
      lastPercent = percent;
      opts.onProgress(percent);
    }
  };
  try {
    await runFfmpeg(audioTranscodeJob(opts.input, opts.demuxer, output, limits), {
      timeoutMs: remainingMs(deadline),
      signal: opts.signal,
      onProgressSeconds,
    });
  } catch (error) {
    throw classifyFfmpegFailure(error, 'audio file');
  }
  const result = await probe(output, 'mov', 'audio file', opts.signal);
  return [
    {
      variant: 'original',
      path: output,
      ext: 'm4a',
      contentType: 'audio/mp4',
      durationSeconds: Math.round(result.durationSeconds * 1000) / 1000,
    },
  ];
}
