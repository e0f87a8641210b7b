import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAudio, makeVideo } from '../../tests/helpers/media-fixtures';
import { processAudio } from './audio';
import { processVideo } from './video';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'transcode-progress-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Percents as the job hands them on: rising, below 100 (100 is the job's, once the files are stored). */
function expectRising(percents: number[]) {
  expect(percents.length).toBeGreaterThan(0);
  expect(percents.every((p, i) => Number.isInteger(p) && p >= 0 && p <= 99 && (i === 0 || p > percents[i - 1]!))).toBe(true);
  expect(percents.at(-1)).toBeGreaterThanOrEqual(90);
}

describe("the transcodes report progress from fluent-ffmpeg's 'progress' events", () => {
  it('video', async () => {
    const input = await makeVideo(dir, { name: 'clip.mp4', seconds: 3, width: 160, height: 120 });
    const workDir = await mkdtemp(path.join(dir, 'video-'));
    const percents: number[] = [];
    await processVideo({ input, demuxer: 'mov', workDir, watermark: null, onProgress: (p) => percents.push(p) });
    expectRising(percents);
  }, 30_000);

  it('audio', async () => {
    const input = await makeAudio(dir, 'tone.mp3', 5);
    const workDir = await mkdtemp(path.join(dir, 'audio-'));
    const percents: number[] = [];
    await processAudio({ input, demuxer: 'mp3', workDir, onProgress: (p) => percents.push(p) });
    expectRising(percents);
  }, 30_000);
});
