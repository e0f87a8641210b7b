import { describe, expect, it } from 'vitest';
import { parseThumbnailVtt } from './hls-playback';

describe('the thumbnail strip\'s track', () => {
  it('reads each cue\'s times and its region of the sprite', () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n/hls/p/0/s/thumbs.jpg?u=a&e=1&s=x#xywh=0,0,160,90\n\n01:00:02.000 --> 01:00:04.500\n/hls/p/0/s/thumbs.jpg?u=a&e=1&s=x#xywh=160,90,160,90\n';
    expect(parseThumbnailVtt(vtt)).toEqual([
      { start: 0, end: 2, url: '/hls/p/0/s/thumbs.jpg?u=a&e=1&s=x', x: 0, y: 0, w: 160, h: 90 },
      { start: 3602, end: 3604.5, url: '/hls/p/0/s/thumbs.jpg?u=a&e=1&s=x', x: 160, y: 90, w: 160, h: 90 },
    ]);
    expect(parseThumbnailVtt('WEBVTT\n\nnot a cue\n')).toEqual([]);
  });
});
