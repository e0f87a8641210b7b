import { mkdtemp, rm, stat } from 'node:fs/promises';
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
    // 300 px wide: all four sizes are made at full width from the one decoded frame
    const input = path.join(work, 'narrow.png');
    await sharp({ create: { width: 300, height: 200, channels: 3, background: '#404040' } }).png().toFile(input);
    const files = await processImage({ input, ext: 'png', workDir: work, watermark: { label: '@someone', position: 'center' } });
    expect(files.map((f) => [f.variant, f.width, f.height])).toEqual([
      ['original', 300, 200],
      ['web', 300, 200],
      ['medium', 300, 200],
      ['thumb', 300, 200],
    ]);
    // what the mark adds to the flat grey (#404040 = 64) frame: the same in every size (a mark
    // blended again over one already there adds more)
    const added = await Promise.all(files.map(async (f) => (await sharp(f.path).stats()).channels[0]!.mean - 64));
    expect(added[3]).toBeGreaterThan(0.05);
    for (const value of added) expect(Math.abs(value - added[3]!) / added[3]!).toBeLessThan(0.05);
  });

  it('makes a 720 px size between the 320 and 1080 px ones, and the display sizes of a photo as WebP, smaller than JPEG', async () => {
    const input = path.join(work, 'photo.jpg');
    await softPhoto(1600, 1200).jpeg({ quality: 90 }).toFile(input);
    const files = await processImage({ input, ext: 'jpg', workDir: work, watermark: { label: '@someone', position: 'bottom-right' } });
    expect(files.map((f) => [f.variant, f.width, f.height, f.contentType, path.basename(f.path)])).toEqual([
      ['original', 1600, 1200, 'image/jpeg', 'original.jpg'],
      ['web', 1080, 810, 'image/webp', 'web.webp'],
      ['medium', 720, 540, 'image/webp', 'medium.webp'],
      ['thumb', 320, 240, 'image/webp', 'thumb.webp'],
    ]);
    for (const file of files) {
      const meta = await sharp(file.path).metadata();
      expect([meta.format, meta.width, meta.height], file.variant).toEqual([file.ext === 'jpg' ? 'jpeg' : 'webp', file.width, file.height]);
    }
    for (const file of files.filter((f) => f.variant !== 'original')) {
      const asJpeg = await sharp(file.path).jpeg({ quality: 80 }).toBuffer();
      expect((await stat(file.path)).size, file.variant).toBeLessThan(asJpeg.length * 0.8);
    }
  });

  it('keeps a display size a JPEG where its WebP would be larger (fine grain)', async () => {
    const input = path.join(work, 'grain.png');
    // strong noise: WebP spends 3-30% more bytes on it than JPEG at the same quality
    await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 80 } } }).png().toFile(input);
    const files = await processImage({ input, ext: 'png', workDir: work, watermark: null });
    expect(files.map((f) => [f.variant, f.width, f.contentType])).toEqual([
      ['original', 1200, 'image/jpeg'],
      ['web', 1080, 'image/jpeg'],
      ['medium', 720, 'image/jpeg'],
      ['thumb', 320, 'image/jpeg'],
    ]);
    for (const file of files) expect((await sharp(file.path).metadata()).format, file.variant).toBe('jpeg');
  });
});

/** What a photo compresses like: soft gradients and shapes, a little grain. */
function softPhoto(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fde68a" fill-opacity="0.6"/>
  </svg>`;
  return sharp(Buffer.from(svg)).blur(3);
}
