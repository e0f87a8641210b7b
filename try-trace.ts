import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { markPicture } from './domain/forensics/picture-mark';
import { compareLeak } from './worker/forensics/picture-trace';
async function main() {
  const original = await sharp('/tmp/pm/photo.jpg').toBuffer();
  const buyers = Array.from({ length: 6 }, (_, i) => ({ viewerId: `v${i}`, label: `@fan_${i}`, seed: randomBytes(32) }));
  for (const who of [3, -1]) {
    const copy = who >= 0 ? await markPicture(original, buyers[who]!, 'image/jpeg') : original;
    const meta = await sharp(copy).metadata();
    const w = Math.round(meta.width! * 0.7), h = Math.round(meta.height! * 0.7);
    const scaled = await sharp(copy).resize(w, h).raw().toBuffer({ resolveWithObject: true });
    const cx = Math.round(w * 0.03), cy = Math.round(h * 0.03);
    const leak = await sharp(scaled.data, { raw: scaled.info }).extract({ left: cx, top: cy, width: w - 2 * cx, height: h - 2 * cy }).jpeg({ quality: 60 }).toBuffer();
    await writeFile('/tmp/pm/leak.jpg', leak);
    const t = Date.now();
    console.log(who, await compareLeak({ original, leakPath: '/tmp/pm/leak.jpg', candidates: buyers }), Date.now() - t, 'ms');
  }
}
main();
