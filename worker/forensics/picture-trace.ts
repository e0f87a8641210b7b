import { fileTypeFromFile } from 'file-type';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import sharp from 'sharp';
import type { DB } from '../../core/db/kysely';
import type { Storage } from '../../core/storage/storage';
import { markRawPixels, type PictureMark } from '../../domain/forensics/picture-mark';
import { findMarkCandidates, findTracedPicture } from '../../domain/forensics/picture-marks.queries';
import type { TraceVerdict } from '../../domain/forensics/verdict';
import { alignLeak, pearson, region, resample, residual, toGrey, type Grey } from './picture-align';

/**
 * Tracing a leaked picture to the buyer whose marked copy it is (issue 49 items 4 and 5,
 * docs/media.md). The Trace a leak job calls `tracePicture`; it reads the post's original, the
 * marks recorded for that picture (picture_mark_issues) and the suspected leak, and answers:
 *
 * - `unmarked`: nobody was ever served a marked copy of this picture (a free post, the setting off
 *   whenever it was served, or only its owner saw it);
 * - `identified`: the leak carries one buyer's mark, far above every other buyer's and above the
 *   marks of decoys (random seeds with the same names) that nobody was given;
 * - `unknown`: the leak is not a picture we can read, does not line up with the original, or no
 *   buyer's mark stands out (an unmarked copy, a mark destroyed, or too little of it left).
 *
 * The leak is hostile: its type is sniffed from its bytes, its size and pixels are bounded, and
 * sharp decodes it with `limitInputPixels`.
 */

/** The size the comparison runs at (the original's width): fine enough for the text's strokes, cheap enough for thousands of buyers. */
const WORKING_WIDTH = 480;
const MAX_LEAK_BYTES = 60 * 1024 * 1024;
const MAX_LEAK_PIXELS = 40_000_000;
const LEAK_TYPES = new Set(['jpg', 'png', 'webp', 'gif', 'avif', 'tif', 'heic']);
/** Marks drawn with random seeds nobody was given: what a wrong buyer's score looks like. */
const DECOYS = 24;
/** The least correlation of the leak with the original for the two to be the same picture. */
const MIN_ALIGNMENT = 0.6;
/** How far above the decoys (in their standard deviations) the best buyer must be, and the runner-up at most. */
const MIN_Z = 6;
const MAX_RUNNER_UP_Z = 4;

export interface TracePictureArgs {
  db: DB;
  storage: Storage;
  postId: string;
  /** the id of any media_files row of the picture (its original, web, medium or thumb) */
  mediaId: string;
  /** the suspected leak, a local file (the trace job's upload) */
  leakPath: string;
}

export async function tracePicture(args: TracePictureArgs): Promise<TraceVerdict> {
  const picture = await findTracedPicture(args.db, args.postId, args.mediaId);
  if (!picture) return { kind: 'unknown', reason: 'This picture is not a file of this post.' };
  const candidates = await findMarkCandidates(args.db, args.postId, picture.position);
  if (candidates.length === 0) return { kind: 'unmarked' };
  if (!picture.originalKey) return { kind: 'unknown', reason: 'The post has no original picture to compare with.' };

  const object = await args.storage.get(picture.originalKey);
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return compareLeak({ original: Buffer.concat(chunks), leakPath: args.leakPath, candidates });
}

/**
 * The comparison itself, from the original's bytes and the candidates' marks (what `tracePicture`
 * reads from the database and storage): align the leak on the original, take what the leak adds
 * to it, and correlate that with what each buyer's mark adds to the same region.
 */
export async function compareLeak(opts: { original: Buffer; leakPath: string; candidates: ReadonlyArray<PictureMark & { viewerId: string }> }): Promise<TraceVerdict> {
  const { candidates } = opts;
  if (candidates.length === 0) return { kind: 'unmarked' };
  const leak = await readLeak(opts.leakPath);
  if ('reason' in leak) return { kind: 'unknown', reason: leak.reason };
  const original = await readOriginal(opts.original);

  const place = alignLeak(original.grey, leak);
  if (!place || place.correlation < MIN_ALIGNMENT) {
    return { kind: 'unknown', reason: 'The leak does not line up with this picture (another picture, or cropped or distorted too much).' };
  }
  const leakAtPlace = resample(leak, place.width, place.height);
  const originalRegion = region(original.grey, place);
  const added = residual(leakAtPlace, originalRegion);

  const scoreOf = async (mark: PictureMark) => {
    const marked = await markRawPixels(mark, original.rgb);
    const markDelta = region(toGrey(marked, original.grey.width, original.grey.height), place);
    for (let i = 0; i < markDelta.data.length; i++) markDelta.data[i]! -= originalRegion.data[i]!;
    return pearson(added, markDelta.data);
  };

  const scored: Array<{ userId: string; score: number }> = [];
  for (const candidate of candidates) scored.push({ userId: candidate.viewerId, score: await scoreOf(candidate) });
  const decoys: number[] = [];
  for (let i = 0; i < DECOYS; i++) decoys.push(await scoreOf({ label: candidates[i % candidates.length]!.label, seed: randomBytes(32) }));

  const mean = decoys.reduce((s, v) => s + v, 0) / decoys.length;
  const spread = Math.max(0.01, Math.sqrt(decoys.reduce((s, v) => s + (v - mean) ** 2, 0) / (decoys.length - 1)));
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const zBest = (best.score - mean) / spread;
  const zNext = scored[1] ? (scored[1].score - mean) / spread : (Math.max(...decoys) - mean) / spread;
  const evidence =
    `aligned at ${(place.width / original.grey.width).toFixed(3)} of the width, offset ${place.left},${place.top} (correlation ${place.correlation.toFixed(3)}); ` +
    `best buyer's mark ${best.score.toFixed(3)} (z ${zBest.toFixed(1)}), next ${scored[1] ? scored[1].score.toFixed(3) : 'none'} (z ${zNext.toFixed(1)}), ` +
    `${DECOYS} decoys ${mean.toFixed(3)} ± ${spread.toFixed(3)}, ${candidates.length} buyer(s) compared`;
  if (zBest < MIN_Z || zNext > MAX_RUNNER_UP_Z) {
    return { kind: 'unknown', reason: `No buyer's mark stands out in this copy: ${evidence}.` };
  }
  return { kind: 'identified', userId: best.userId, confidence: confidenceOf(zBest, zNext), evidence };
}

/**
 * From the best buyer's and the runner-up's distance above the decoys: near 1 when the best is far
 * above both, falling as the runner-up comes closer. Not a probability: a measure for the screen.
 */
function confidenceOf(zBest: number, zNext: number): number {
  const separation = Math.min(1, (zBest - Math.max(0, zNext)) / (2 * MIN_Z));
  const strength = 1 - Math.exp(-zBest / MIN_Z);
  return Math.round(Math.max(0, Math.min(1, separation * strength)) * 1000) / 1000;
}

async function readLeak(leakPath: string): Promise<Grey | { reason: string }> {
  const { size } = await stat(leakPath);
  if (size === 0 || size > MAX_LEAK_BYTES) return { reason: 'The leak is empty or larger than 60 MB.' };
  const type = await fileTypeFromFile(leakPath);
  if (!type || !LEAK_TYPES.has(type.ext)) return { reason: 'The leak is not a picture (JPEG, PNG, WebP, GIF, AVIF, TIFF or HEIC).' };
  try {
    // Decoded once, bounded, upright, grey, and no larger than twice the working size (the
    // comparison needs no more, and the alignment resamples it anyway).
    const { data, info } = await sharp(leakPath, { limitInputPixels: MAX_LEAK_PIXELS, failOn: 'error', pages: 1 })
      .autoOrient()
      .resize({ width: WORKING_WIDTH * 2, height: WORKING_WIDTH * 2, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return toGrey(data, info.width, info.height);
  } catch (error) {
    return { reason: /pixel limit/i.test((error as Error).message) ? 'The leak has too many pixels.' : 'The leak could not be read as a picture.' };
  }
}

/** The original at working size, as RGB (what each buyer's mark is drawn on) and grey. */
async function readOriginal(bytes: Buffer): Promise<{ rgb: { data: Buffer; width: number; height: number; channels: 3 }; grey: Grey }> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_LEAK_PIXELS, pages: 1 })
    .resize({ width: WORKING_WIDTH })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).greyscale().raw().toBuffer();
  return { rgb: { data, width: info.width, height: info.height, channels: 3 }, grey: toGrey(grey, info.width, info.height) };
}
