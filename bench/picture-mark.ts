/**
 * The per-buyer picture mark (docs/media.md, docs/performance.md): the time to draw a marked copy
 * beside a plain re-encode of the same picture (its floor, same run), and a trace. Not part of
 * `npm run bench` yet: `npx tsx bench/picture-mark.ts`.
 */
import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { markPicture } from '../domain/forensics/picture-mark';
import { compareLeak } from '../worker/forensics/picture-trace';
import { photoLikeJpeg } from '../tests/helpers/media-fixtures';
async function time<T>(f: () => Promise<T>) { const t = process.hrtime.bigint(); const r = await f(); return [r, Number(process.hrtime.bigint() - t) / 1e6] as const; }
async function main() {
  const mark = { label: '@a_buyer_name', seed: randomBytes(32) };
  for (const [w, h] of [[320, 240], [1080, 810], [4000, 3000]] as const) {
    const pic = await photoLikeJpeg(w, h);
    await markPicture(pic, mark, 'image/jpeg');
    const runs: number[] = []; const plain: number[] = [];
    for (let i = 0; i < 7; i++) {
      runs.push((await time(() => markPicture(pic, mark, 'image/jpeg')))[1]);
      plain.push((await time(() => sharp(pic).jpeg({ quality: 86 }).toBuffer()))[1]);
    }
    runs.sort((a, b) => a - b); plain.sort((a, b) => a - b);
    console.log(`${w}x${h}: marked ${runs[0]!.toFixed(0)} ms, plain re-encode ${plain[0]!.toFixed(0)} ms, ratio ${(runs[0]! / plain[0]!).toFixed(2)}`);
  }
  const original = await photoLikeJpeg(1200, 900);
  for (const n of [6, 50]) {
    const buyers = Array.from({ length: n }, (_, i) => ({ viewerId: `v${i}`, label: `@fan_${i}`, seed: randomBytes(32) }));
    const copy = await markPicture(original, buyers[1]!, 'image/jpeg');
    const leak = await sharp(copy).resize(840).extract({ left: 25, top: 19, width: 790, height: 592 }).jpeg({ quality: 60 }).toBuffer();
    await writeFile(`${tmpdir()}/picture-mark-leak.jpg`, leak);
    const [verdict, ms] = await time(() => compareLeak({ original, leakPath: `${tmpdir()}/picture-mark-leak.jpg`, candidates: buyers }));
    console.log(`trace, ${n} buyers: ${ms.toFixed(0)} ms`, verdict.kind, verdict.kind === 'identified' ? verdict.userId : '');
  }
}
main();
