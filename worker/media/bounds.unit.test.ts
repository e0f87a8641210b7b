import { describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { CHAT_MEDIA_LIMITS } from '../../common/limits';
import { audioTimeLimitMs, checkAudioBounds, checkVideoBounds, decodedFrames, ladderTimeLimitMs, maxFrames, videoTimeLimitMs, videoWork } from './bounds';
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

describe('chat bounds (CHAT_MEDIA_LIMITS)', () => {
  it('refuses chat video over 1080p or 10 minutes, and chat audio over 20 minutes, with their reasons', () => {
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 10 * 60 }, { width: 1920, height: 1080 }), CHAT_MEDIA_LIMITS))).toBeNull();
    expect(reasonOf(() => checkVideoBounds(video({}, { width: 1080, height: 1920 }), CHAT_MEDIA_LIMITS))).toBeNull();
    const tooLarge = "The video's picture is too large: at most 1920x1080 pixels (1080p).";
    for (const [width, height] of [[3840, 2160], [2560, 1440], [1920, 1081], [1081, 1920]] as const) {
      expect(reasonOf(() => checkVideoBounds(video({}, { width, height }), CHAT_MEDIA_LIMITS)), `${width}x${height}`).toBe(tooLarge);
    }
    // a post may be this large and this long
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 20 * 60 }, { width: 3840, height: 2160 })))).toBeNull();
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 20 * 60 }), CHAT_MEDIA_LIMITS))).toBe('The video is too long: at most 10 minutes.');
    expect(reasonOf(() => checkAudioBounds(audio({ durationSeconds: 20 * 60 }), CHAT_MEDIA_LIMITS))).toBeNull();
    expect(reasonOf(() => checkAudioBounds(audio({ durationSeconds: 20 * 60 + 1 }), CHAT_MEDIA_LIMITS))).toBe('The audio file is too long: at most 20 minutes.');
  });
});

describe('decoded work', () => {
  it('refuses a video whose stated frames or stream duration are more than the longest accepted, whatever the header duration says', () => {
    // 10 s in the container's header, 30 minutes of 60 fps frames in the stream
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 10 }, { fps: 60, frames: 30 * 60 * 60 }), CHAT_MEDIA_LIMITS))).toBe(
      'The video has too many frames: at most 10 minutes at 60 frames per second.',
    );
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 10 }, { fps: 30, durationSeconds: 30 * 60 }), CHAT_MEDIA_LIMITS))).toBe(
      'The video is too long: at most 10 minutes.',
    );
    expect(reasonOf(() => checkVideoBounds(video({ durationSeconds: 10 }, { fps: 60, frames: 600 }), CHAT_MEDIA_LIMITS))).toBeNull();
  });

  it('counts the frames from the stated count, the durations and the rate (the highest accepted when unknown)', () => {
    expect(decodedFrames(video({ durationSeconds: 10 }, { fps: 25 }), picture({ fps: 25 }))).toBe(250);
    expect(decodedFrames(video({ durationSeconds: 10 }), picture({ fps: 25, frames: 9000 }))).toBe(9000);
    expect(decodedFrames(video({ durationSeconds: 10 }), picture({ fps: null }))).toBe(600);
    expect(maxFrames(CHAT_MEDIA_LIMITS)).toBe(Math.ceil(10 * 60 * 60 * 1.01));
  });

  it('gives ffmpeg time in proportion to the frames and pixels it decodes and encodes', () => {
    const out1080 = { width: 1920, height: 1080 };
    const at = (seconds: number, width: number, height: number, fps: number, out = { width, height }) => {
      const probed = video({ durationSeconds: seconds }, { width, height, fps });
      return videoTimeLimitMs(videoWork(probed, probed.videoStreams[0]!, out));
    };
    // the costliest second accepted (4K60 scaled to 1080p) keeps about the 3 s it had
    expect(Math.round((at(100, 3840, 2160, 60, out1080) - 60_000) / 100)).toBe(3106);
    // a small video gets far less than 3x its duration: ten minutes of 240p at 30 fps, 60 s + 49 s
    expect(at(600, 320, 240, 30)).toBe(60_000 + 36_000 + Math.round(600 * 30 * 2 * 0.0768 * 4.8));
    // the work, not the declared duration: the same 10 s header with 30 minutes of 4K60 frames
    const lying = video({ durationSeconds: 10 }, { width: 3840, height: 2160, fps: 60, frames: 30 * 60 * 60 });
    expect(videoTimeLimitMs(videoWork(lying, lying.videoStreams[0]!, out1080))).toBeGreaterThan(at(10, 3840, 2160, 60, out1080) * 50);
  });

  it('is 60 s plus half the duration for audio, and scales with MEDIA_TIME_LIMIT_SCALE', () => {
    expect(audioTimeLimitMs(120)).toBe(120_000);
    expect(audioTimeLimitMs(60 * 60)).toBe(60_000 + 1_800_000);
    expect(audioTimeLimitMs(120, 2)).toBe(240_000);
    expect(audioTimeLimitMs(Number.NaN)).toBe(60_000);
    expect(audioTimeLimitMs(-5)).toBe(60_000);
    expect(audioTimeLimitMs(0, 1e-9)).toBe(1);
    const probed = video({ durationSeconds: 10 });
    expect(videoTimeLimitMs(videoWork(probed, probed.videoStreams[0]!, { width: 1920, height: 1080 }), 2)).toBe(
      2 * videoTimeLimitMs(videoWork(probed, probed.videoStreams[0]!, { width: 1920, height: 1080 })),
    );
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

describe('the ladder\'s time limit', () => {
  it('grows with the rungs it encodes, and is above the transcode\'s own for the same video', () => {
    const source = { frames: 25 * 60, width: 1920, height: 1080 };
    const rungs = [{ width: 640, height: 360 }, { width: 1280, height: 720 }, { width: 1920, height: 1080 }];
    const one = ladderTimeLimitMs(source, rungs.slice(0, 1));
    const three = ladderTimeLimitMs(source, rungs);
    expect(three).toBeGreaterThan(one);
    const transcode = videoTimeLimitMs({ frames: source.frames, megapixels: (source.frames * 2 * 1920 * 1080) / 1e6 });
    expect(three).toBeGreaterThan(transcode);
    expect(ladderTimeLimitMs(source, rungs, 2)).toBe(2 * three);
  });
});
