import { MEDIA_LIMITS } from '../../common/limits';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError } from './errors';
import type { Probe, ProbedVideoStream } from './probe';

/**
 * What the worker agrees to transcode, decided from ffprobe before any decoding: one picture
 * stream (video) or one sound stream (audio) of a plausible size, rate and length (MEDIA_LIMITS),
 * and how long the work on it may take. Pure: no process, no file.
 */

/** 59.94 and 60.02 fps are 60. */
const FPS_ALLOWANCE = 1.01;

/** The video's one picture stream, or MediaContentError with the reason the creator reads. */
export function checkVideoBounds(probed: Probe): ProbedVideoStream {
  if (probed.videoStreams.length === 0) throw new MediaContentError(UPLOAD_TEXTS.noVideoStream);
  if (probed.videoStreams.length > 1) throw new MediaContentError(UPLOAD_TEXTS.multipleVideoStreams);
  const video = probed.videoStreams[0]!;
  if (!(video.width > 0 && video.height > 0) || !(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('video'));
  const { videoMaxLongSide: maxLong, videoMaxShortSide: maxShort } = MEDIA_LIMITS;
  if (Math.max(video.width, video.height) > maxLong || Math.min(video.width, video.height) > maxShort) {
    throw new MediaContentError(UPLOAD_TEXTS.videoTooLarge(maxLong, maxShort));
  }
  if (video.fps !== null && video.fps > MEDIA_LIMITS.videoMaxFps * FPS_ALLOWANCE) {
    throw new MediaContentError(UPLOAD_TEXTS.frameRateTooHigh(MEDIA_LIMITS.videoMaxFps));
  }
  if (probed.durationSeconds > MEDIA_LIMITS.videoMaxMinutes * 60) throw new MediaContentError(UPLOAD_TEXTS.tooLong('video', MEDIA_LIMITS.videoMaxMinutes));
  return video;
}

/** An audio file has exactly one sound stream (cover art is allowed and dropped). */
export function checkAudioBounds(probed: Probe): void {
  if (probed.audioStreams.length === 0) throw new MediaContentError(UPLOAD_TEXTS.noAudioStream);
  if (probed.audioStreams.length > 1) throw new MediaContentError(UPLOAD_TEXTS.multipleAudioStreams);
  if (!(probed.durationSeconds > 0)) throw new MediaContentError(UPLOAD_TEXTS.damaged('audio file'));
  if (probed.durationSeconds > MEDIA_LIMITS.audioMaxMinutes * 60) {
    throw new MediaContentError(UPLOAD_TEXTS.tooLong('audio file', MEDIA_LIMITS.audioMaxMinutes));
  }
}

/**
 * The time ffmpeg may spend on one upload after the first probe (the transcode and the poster;
 * each probe has a short limit of its own):
 * a base for starting up and the short steps, plus a multiple of the media's duration. Video: 3x
 * leaves room for the costliest file we accept (a 4K60 test pattern scaled to 1080p with the
 * watermark took about 3.3 CPU-seconds per second of media here, some 1.7x real time on two free
 * cores); audio encodes at 50x real time or more. A job past it is killed and the post fails
 * ('took too long'). `scale` (MEDIA_TIME_LIMIT_SCALE) stretches it for slow or busy machines.
 */
export const TIME_LIMIT = {
  baseSeconds: 60,
  perMediaSecond: { video: 3, audio: 0.5 },
} as const;

export function processingTimeLimitMs(kind: 'video' | 'audio', durationSeconds: number, scale = 1): number {
  const media = Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : 0;
  return Math.max(1, Math.round(scale * (TIME_LIMIT.baseSeconds + TIME_LIMIT.perMediaSecond[kind] * media) * 1000));
}

/** Milliseconds left until `deadline` (Date.now() based), at least 1 so a spent budget still fails as a timeout. */
export function remainingMs(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}
