import { MEDIA_LIMITS, type MediaBounds } from '../../common/limits';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError } from './errors';
import type { Probe, ProbedVideoStream } from './probe';

/**
 * What the worker agrees to transcode, decided from ffprobe before any decoding: one picture
 * stream (video) or one sound stream (audio) of a plausible size, rate, length and frame count
 * (MEDIA_LIMITS for posts, CHAT_MEDIA_LIMITS for chat attachments), and how long the work on it
 * may take. Pure: no process, no file.
 */

/** 59.94 and 60.02 fps are 60. */
const FPS_ALLOWANCE = 1.01;

/** The video's one picture stream, or MediaContentError with the reason the uploader reads. */
export function checkVideoBounds(probed: Probe, limits: MediaBounds = MEDIA_LIMITS): ProbedVideoStream {
  if (probed.videoStreams.length === 0) throw new MediaContentError(UPLOAD_TEXTS.noVideoStream);
  if (probed.videoStreams.length > 1) throw new MediaContentError(UPLOAD_TEXTS.multipleVideoStreams);
  const video = probed.videoStreams[0]!;
  if (!(video.width > 0 && video.height > 0) || !(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
  const { videoMaxLongSide: maxLong, videoMaxShortSide: maxShort } = limits;
  if (Math.max(video.width, video.height) > maxLong || Math.min(video.width, video.height) > maxShort) {
    throw new MediaContentError(UPLOAD_TEXTS.videoTooLarge(maxLong, maxShort, limits.videoSizeName));
  }
  if (video.fps !== null && video.fps > limits.videoMaxFps * FPS_ALLOWANCE) {
    throw new MediaContentError(UPLOAD_TEXTS.frameRateTooHigh(limits.videoMaxFps));
  }
  if (Math.max(probed.durationSeconds, video.durationSeconds ?? 0) > limits.videoMaxMinutes * 60) {
    throw new MediaContentError(UPLOAD_TEXTS.tooLong('video', limits.videoMaxMinutes));
  }
  // a stated frame count beyond the longest video at the highest rate: whatever the header's duration says
  if (decodedFrames(probed, video, limits) > maxFrames(limits)) {
    throw new MediaContentError(UPLOAD_TEXTS.tooManyFrames(limits.videoMaxMinutes, limits.videoMaxFps));
  }
  return video;
}

/** The most frames a video within `limits` has; ffmpeg also stops writing there (video.ts). */
export function maxFrames(limits: MediaBounds): number {
  return Math.ceil(limits.videoMaxMinutes * 60 * limits.videoMaxFps * FPS_ALLOWANCE);
}

/**
 * The frames ffmpeg will decode: the most of the stream's stated count and its durations
 * (container's and stream's) at its frame rate (the highest accepted one when unknown). Not only
 * the declared duration: a file may state one and hold more.
 */
export function decodedFrames(probed: Probe, video: ProbedVideoStream, limits: MediaBounds = MEDIA_LIMITS): number {
  const fps = video.fps ?? limits.videoMaxFps;
  const seconds = Math.max(probed.durationSeconds, video.durationSeconds ?? 0);
  return Math.max(video.frames ?? 0, Math.ceil(seconds * fps));
}

/** An audio file has exactly one sound stream (cover art is allowed and dropped). */
export function checkAudioBounds(probed: Probe, limits: MediaBounds = MEDIA_LIMITS): void {
  if (probed.audioStreams.length === 0) throw new MediaContentError(UPLOAD_TEXTS.noAudioStream);
  if (probed.audioStreams.length > 1) throw new MediaContentError(UPLOAD_TEXTS.multipleAudioStreams);
  if (!(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('audio file'));
  if (probed.durationSeconds > limits.audioMaxMinutes * 60) {
    throw new MediaContentError(UPLOAD_TEXTS.tooLong('audio file', limits.audioMaxMinutes));
  }
}

/**
 * The time ffmpeg may spend on one upload after the first probe (the transcode and the poster;
 * each probe has a short limit of its own): a base for starting up and the short steps, plus the
 * work itself. Audio: a multiple of its duration (it encodes at 50x real time or more). Video:
 * in proportion to what ffmpeg really does, decoding every frame at its stored size and encoding
 * it at the output size: per frame, plus per megapixel read and written. The figures leave room
 * for the costliest file we accept: a 4K60 test pattern scaled to 1080p with the watermark took
 * about 3.3 CPU-seconds per second of media here (some 1.7x real time on two free cores); 4K60 is
 * 60 frames of 8.3 + 2.1 megapixels a second, allowed 0.12 + 3 = 3.1 s. A 720p30 clip is allowed
 * 0.33 s per second of media, a 240p one 0.08 s. A job past it is killed and the item fails
 * ('took too long'). `scale` (MEDIA_TIME_LIMIT_SCALE) stretches it for slow or busy machines.
 */
export const TIME_LIMIT = {
  baseSeconds: 60,
  video: { perFrame: 0.002, perMegapixel: 0.0048 },
  audio: { perMediaSecond: 0.5 },
} as const;

/** What a video's transcode costs: frames decoded, and the megapixels decoded plus encoded in all. */
export interface VideoWork {
  frames: number;
  megapixels: number;
}

export function videoWork(probed: Probe, video: ProbedVideoStream, output: { width: number; height: number }, limits: MediaBounds = MEDIA_LIMITS): VideoWork {
  const frames = decodedFrames(probed, video, limits);
  return { frames, megapixels: (frames * (video.width * video.height + output.width * output.height)) / 1e6 };
}

export function videoTimeLimitMs(work: VideoWork, scale = 1): number {
  const seconds = TIME_LIMIT.baseSeconds + TIME_LIMIT.video.perFrame * work.frames + TIME_LIMIT.video.perMegapixel * work.megapixels;
  return limitMs(seconds, scale);
}

export function audioTimeLimitMs(durationSeconds: number, scale = 1): number {
  const media = Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : 0;
  return limitMs(TIME_LIMIT.baseSeconds + TIME_LIMIT.audio.perMediaSecond * media, scale);
}

function limitMs(seconds: number, scale: number): number {
  return Math.max(1, Math.round(scale * seconds * 1000));
}

/** Milliseconds left until `deadline` (Date.now() based), at least 1 so a spent budget still fails as a timeout. */
export function remainingMs(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

/**
 * The time the ladder of one video may take (worker/media/hls-ladder.ts): one decode of our own
 * MP4 at its size, and an encode per rung at that rung's size, priced as a transcode's frames and
 * megapixels are, plus the thumbnail strip's decode. A ladder of three rungs from 1080p is allowed
 * about 1.6x what the 1080p transcode alone is; a 360p-only one much less.
 */
export function ladderTimeLimitMs(
  source: { frames: number; width: number; height: number },
  rungs: readonly { width: number; height: number }[],
  scale = 1,
): number {
  const decoded = source.width * source.height;
  const encoded = rungs.reduce((sum, r) => sum + r.width * r.height, 0);
  const seconds =
    TIME_LIMIT.baseSeconds +
    TIME_LIMIT.video.perFrame * source.frames * (1 + rungs.length) +
    TIME_LIMIT.video.perMegapixel * ((source.frames * (2 * decoded + encoded)) / 1e6);
  return limitMs(seconds, scale);
}
