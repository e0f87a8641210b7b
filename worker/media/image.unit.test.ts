import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processImage } from './image';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'image-unit-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('processImage', () => {
  it('marks every size of a picture narrower than the size limits once, as strongly as the others', async () => {
    // 300 px wide: all three sizes are made at full width from the one decoded frame
    const input = path.join(work, 'narrow.png');
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#404040' } }).png().toFile(input);
    const files = await processImage({ input, ext: 'png', workDir: work, watermark: { label: '@someone', position: 'center' } });
    expect(files.map((f) => [f.variant, f.width, f.height])).toEqual([
      ['original', 300, 200],
      ['web', 300, 200],
      ['thumb', 300, 200],
    ]);
    // what the mark adds to the flat grey (#404040 = 64) frame: the same in every size (a mark
    // blended again over one already there adds more)
    const added = await Promise.all(files.map(async (f) => (await sharp(f.path).stats()).channels[0]!.mean - 64));
    expect(added[2]).toBeGreaterThan(0.05);
    for (const value of added) expect(Math.abs(value - added[2]!) / added[2]!).toBeLessThan(0.05);
  });
});
