import { describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { checkAudioBounds, checkVideoBounds, processingTimeLimitMs } from './bounds';
import { MediaContentError } from './errors';
import type { Probe, ProbedVideoStream } from './probe';
import { rate } from './probe';

const picture = (over: Partial<ProbedVideoStream> = {}): ProbedVideoStream => ({ codec: 'h264', width: 1920, height: 1080, rotation: 0, fps: 30, ...over });
const video = (over: Partial<Probe> = {}, stream: Partial<ProbedVideoStream> = {}): Probe => ({
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 60,
  videoStreams: [picture(stream)],
  audioStreams: [{ codec: 'aac' }],
  ...over,
});
const audio = (over: Partial<Probe> = {}): Probe => ({ formatName: 'mp3', durationSeconds: 180, videoStreams: [], audioStreams: [{ codec: 'mp3' }], ...over });

function reasonOf(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(MediaContentError);
    return (error as Error).message;
  }
}

describe('checkVideoBounds', () => {
  it('accepts one picture stream up to 4K UHD either way round, 60 fps and 30 minutes', () => {
    for (const [width, height] of [[3840, 2160], [2160, 3840], [1920, 1080], [2200, 2160]] as const) {
      expect(reasonOf(() => checkVideoBounds(video({}, { width, height }))), `${width}x${height}`).toBeNull();
    }
    expect(reasonOf(() => checkVideoBounds(video({}, { fps: 60 })))).toBeNull();
    expect(reasonOf(() => checkVideoBounds(video({}, { fps: 60000 / 1001 })))).toBeNull();
    expect(reasonOf(() => checkVideoBounds(video({}, { fps: null })))).toBeNull();
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 30 * 60 })))).toBeNull();
    // several sound tracks are fine: the first is kept
    expect(reasonOf(() => checkVideoBounds(video({ audioStreams: [{ codec: 'aac' }, { codec: 'aac' }] })))).toBeNull();
  });

  it('refuses a picture larger than 4K in either orientation', () => {
    const tooLarge = UPLOAD_TEXTS.videoTooLarge(3840, 2160);
    expect(tooLarge).toBe("The video's picture is too large: at most 3840x2160 pixels (4K).");
    for (const [width, height] of [[3841, 2160], [3840, 2161], [2161, 3840], [4096, 2160], [7680, 4320], [10000, 16]] as const) {
      expect(reasonOf(() => checkVideoBounds(video({}, { width, height }))), `${width}x${height}`).toBe(tooLarge);
    }
  });

  it('refuses more than 60 frames per second', () => {
    for (const fps of [61, 90, 120, 1000]) {
      expect(reasonOf(() => checkVideoBounds(video({}, { fps }))), String(fps)).toBe('The video has too many frames per second: at most 60.');
    }
  });

  it('refuses more than 30 minutes', () => {
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 30 * 60 + 1 })))).toBe('The video is too long: at most 30 minutes.');
  });

  it('refuses no picture, several pictures, no size or no duration', () => {
    expect(reasonOf(() => checkVideoBounds(video({ videoStreams: [] })))).toBe(UPLOAD_TEXTS.noVideoStream);
    expect(reasonOf(() => checkVideoBounds(video({ videoStreams: [picture(), picture()] })))).toBe(UPLOAD_TEXTS.multipleVideoStreams);
    expect(reasonOf(() => checkVideoBounds(video({}, { width: 0 })))).toBe(UPLOAD_TEXTS.damaged('video'));
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 0 })))).toBe(UPLOAD_TEXTS.damaged('video'));
  });
});

describe('checkAudioBounds', () => {
  it('accepts one sound stream up to 60 minutes, cover art or not', () => {
    expect(reasonOf(() => checkAudioBounds(audio()))).toBeNull();
    expect(reasonOf(() => checkAudioBounds(audio({ durationSeconds: 3600, videoStreams: [] })))).toBeNull();
  });

  it('refuses no sound, several sound streams, no duration and more than 60 minutes', () => {
    expect(reasonOf(() => checkAudioBounds(audio({ audioStreams: [] })))).toBe(UPLOAD_TEXTS.noAudioStream);
    expect(reasonOf(() => checkAudioBounds(audio({ audioStreams: [{ codec: 'mp3' }, { codec: 'mp3' }] })))).toBe(UPLOAD_TEXTS.multipleAudioStreams);
    expect(reasonOf(() => checkAudioBounds(audio({ durationSeconds: 0 })))).toBe(UPLOAD_TEXTS.damaged('audio file'));
    expect(reasonOf(() => checkAudioBounds(audio({ durationSeconds: 3601 })))).toBe('The audio file is too long: at most 60 minutes.');
  });
});

describe('processingTimeLimitMs', () => {
  it('is 60 s plus 3x the video, 0.5x the audio', () => {
    expect(processingTimeLimitMs('video', 0)).toBe(60_000);
    expect(processingTimeLimitMs('video', 10)).toBe(90_000);
    expect(processingTimeLimitMs('video', 30 * 60)).toBe(60_000 + 5_400_000);
    expect(processingTimeLimitMs('audio', 120)).toBe(120_000);
    expect(processingTimeLimitMs('audio', 60 * 60)).toBe(60_000 + 1_800_000);
  });

  it('scales with MEDIA_TIME_LIMIT_SCALE and treats a missing duration as none', () => {
    expect(processingTimeLimitMs('video', 10, 2)).toBe(180_000);
    expect(processingTimeLimitMs('video', 10, 0.0001)).toBe(9);
    expect(processingTimeLimitMs('video', Number.NaN)).toBe(60_000);
    expect(processingTimeLimitMs('video', -5)).toBe(60_000);
    expect(processingTimeLimitMs('video', 0, 1e-9)).toBe(1);
  });
});

describe('rate', () => {
  it('reads ffprobe frame rates', () => {
    expect(rate('25/1')).toBe(25);
    expect(rate('30000/1001')).toBeCloseTo(29.97, 2);
    expect(rate('60')).toBe(60);
    expect(rate('0/0')).toBeNull();
    expect(rate('1/0')).toBeNull();
    expect(rate(undefined)).toBeNull();
    expect(rate('abc')).toBeNull();
  });
});
