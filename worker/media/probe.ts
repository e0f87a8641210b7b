import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError } from './errors';
import { formatNameMatches, type Demuxer } from './ffmpeg-input';
import { classifyFfmpegFailure, runFfprobe, type FfprobeJob } from './ffmpeg-run';

/** ffprobe reads headers only: a file it cannot read in this long is not worth reading. */
const PROBE_TIMEOUT_MS = 30_000;

export interface ProbedVideoStream {
  codec: string;
  width: number;
  height: number;
  /** clockwise degrees the player turns the picture (phone videos) */
  rotation: number;
  /** frames per second (average, else the base rate); null when ffprobe cannot tell */
  fps: number | null;
  /** the stream's own frame count (nb_frames) and duration, when its container states them */
  frames?: number | null;
  durationSeconds?: number | null;
}

export interface Probe {
  /** as ffprobe reports it: always the forced demuxer's (checked) */
  formatName: string;
  durationSeconds: number;
  /** picture streams (cover art in an audio file is not one) */
  videoStreams: ProbedVideoStream[];
  audioStreams: { codec: string }[];
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  nb_frames?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number | string }[];
  tags?: { rotate?: string };
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

/**
 * ffprobe `file` opened with `demuxer` only (ffmpeg-input.ts, run by ffmpeg-run.ts). A file that
 * demuxer cannot read is a damaged upload (MediaContentError with `what` in its words).
 */
export async function probe(file: string, demuxer: Demuxer, what: string, signal?: AbortSignal): Promise<Probe> {
  let stdout: string;
  try {
    stdout = await runFfprobe(probeJob(file, demuxer), { timeoutMs: PROBE_TIMEOUT_MS, signal });
  } catch (error) {
    throw classifyFfmpegFailure(error, what);
  }
  let data: FfprobeOutput;
  try {
    data = JSON.parse(stdout) as FfprobeOutput;
  } catch {
    throw new MediaContentError(UPLOAD_TEXTS.damaged(what));
  }
  const formatName = data.format?.format_name ?? '';
  if (!formatNameMatches(demuxer, formatName)) throw new MediaContentError(UPLOAD_TEXTS.damaged(what));
  const streams = data.streams ?? [];
  const pictures = streams.filter((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const sounds = streams.filter((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration ?? pictures[0]?.duration ?? sounds[0]?.duration ?? NaN);
  return {
    formatName,
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : 0,
    videoStreams: pictures.map((s) => ({
      codec: s.codec_name ?? 'unknown',
      width: s.width ?? 0,
      height: s.height ?? 0,
      rotation: rotationOf(s),
      fps: rate(s.avg_frame_rate) ?? rate(s.r_frame_rate),
      frames: positive(s.nb_frames),
      durationSeconds: positive(s.duration),
    })),
    audioStreams: sounds.map((s) => ({ codec: s.codec_name ?? 'unknown' })),
  };
}

/** The ffprobe run (exported for its test). */
export function probeJob(file: string, demuxer: Demuxer): FfprobeJob {
  return { input: { file, demuxer }, options: ['-v', 'error', '-show_format', '-show_streams', '-of', 'json'] };
}

function rotationOf(stream: FfprobeStream): number {
  const fromSide = (stream.side_data_list ?? []).find((d) => d.rotation !== undefined)?.rotation;
  const degrees = Number(fromSide ?? stream.tags?.rotate ?? 0);
  return Number.isFinite(degrees) ? ((Math.round(degrees) % 360) + 360) % 360 : 0;
}

function positive(value: string | undefined): number | null {
  const n = Number(value ?? NaN);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** '30000/1001' → 29.97; '0/0' and nonsense → null. */
export function rate(value: string | undefined): number | null {
  const match = /^(\d+)(?:\/(\d+))?$/.exec(value ?? '');
  if (!match) return null;
  const fps = Number(match[1]) / Number(match[2] ?? 1);
  return Number.isFinite(fps) && fps > 0 ? fps : null;
}
