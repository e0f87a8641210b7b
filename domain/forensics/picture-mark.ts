import { createHash } from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';

/**
 * The per-buyer mark of a paid picture (issue 49 item 4, docs/media.md): drawn by the media route
 * for every entitled viewer who is not the owner, and drawn again by the picture tracer
 * (worker/forensics/picture-trace.ts) to compare a leak with each buyer's copy. Two layers, both
 * laid by sharp (libvips' threads, never the event loop):
 *
 * - the buyer's @username tiled faintly across the whole picture, at an angle, so a screenshot or
 *   a crop carries it; the tiles' offset comes from the viewer's seed, so two buyers' tiles fall in
 *   different places even with look-alike names;
 * - a smooth pattern of light and dark cells (about 1.5% of the luminance, soft-light), keyed by the
 *   seed: invisible on a photo, it survives JPEG, scaling and a small crop, and is what tells
 *   buyers apart when the text is cropped or blurred.
 *
 * Everything is laid out relative to the picture's size, so the thumbnail, the feed size and the
 * full size of one picture carry the same mark at their own scale, and the tracer can draw it at any
 * size. The seed is random per (picture, viewer) and kept only in the database
 * (picture_mark_issues): knowing the algorithm and one's own name is not enough to erase the pattern.
 */
export interface PictureMark {
  /** what the tiles say: the buyer's @username */
  label: string;
  /** 32 random bytes recorded for this picture and viewer */
  seed: Uint8Array;
}

/** Cells of the pattern across the picture's width (rows follow its aspect). */
export const PATTERN_COLUMNS = 24;
/** How far from mid-grey a cell is (soft-light: about ±4 levels of 255 on mid-tones). */
const PATTERN_DEPTH = 22;
const TEXT_FILL_OPACITY = 0.16;
const TEXT_SHADOW_OPACITY = 0.12;
const TEXT_ANGLE_DEG = -24;

/** Deterministic numbers in [0, 1) from the seed: SHA-256 in counter mode, one byte pair each. */
export function seededNumbers(seed: Uint8Array, purpose: string, count: number): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < count; block++) {
    const digest = createHash('sha256').update(seed).update(`${purpose}:${block}`).digest();
    for (let i = 0; i + 1 < digest.length && out.length < count; i += 2) out.push(digest.readUInt16BE(i) / 65536);
  }
  return out;
}

export function patternGrid(width: number, height: number): { columns: number; rows: number } {
  return { columns: PATTERN_COLUMNS, rows: Math.max(1, Math.round((PATTERN_COLUMNS * height) / width)) };
}

/** The pattern's cells, row by row: +1 lighter, -1 darker (balanced by construction: pairs of opposite signs). */
export function patternSigns(seed: Uint8Array, columns: number, rows: number): Int8Array {
  const numbers = seededNumbers(seed, 'cells', columns * rows);
  return Int8Array.from(numbers, (n) => (n < 0.5 ? -1 : 1));
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The tiled text as an SVG of the picture's size: each tile the label in white over a dark copy a
 * little lower and to the right (readable on light and dark alike). An outline (stroke) would do
 * the same at four times the cost in librsvg, and forcing the text's length (textLength) at twice.
 */
function textSvg(mark: PictureMark, width: number, height: number): Buffer {
  const fontSize = Math.max(9, Math.min(width, height) * 0.045);
  const textLength = fontSize * 0.62 * mark.label.length;
  const stepX = textLength + fontSize * 4;
  const stepY = fontSize * 5;
  const shadow = Math.max(0.7, fontSize / 22);
  const [offsetX = 0, offsetY = 0] = seededNumbers(mark.seed, 'tiles', 2);
  const label = xml(mark.label);
  const f = (n: number) => n.toFixed(1);
  const dark: string[] = [];
  const light: string[] = [];
  const reach = Math.max(width, height) * 0.3 + stepX;
  for (let row = 0, y = -reach + offsetY * stepY; y < height + reach; row++, y += stepY) {
    const shift = (row % 2) * (stepX / 2) + offsetX * stepX;
    for (let x = -reach + shift; x < width + reach; x += stepX) {
      const turn = `rotate(${TEXT_ANGLE_DEG} ${f(x + textLength / 2)} ${f(y)})`;
      dark.push(`<text x="${f(x + shadow)}" y="${f(y + shadow)}" transform="${turn}">${label}</text>`);
      light.push(`<text x="${f(x)}" y="${f(y)}" transform="${turn}">${label}</text>`);
    }
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="${fontSize.toFixed(2)}">` +
      `<g fill="#000000" fill-opacity="${TEXT_SHADOW_OPACITY}">${dark.join('')}</g>` +
      `<g fill="#ffffff" fill-opacity="${TEXT_FILL_OPACITY}">${light.join('')}</g>` +
      `</g></svg>`,
  );
}

/** The pattern as opaque grey pixels of the picture's size (cells smoothly interpolated), raw: no PNG to encode and decode again. */
async function patternImage(mark: PictureMark, width: number, height: number): Promise<{ data: Buffer; width: number; height: number }> {
  const { columns, rows } = patternGrid(width, height);
  const signs = patternSigns(mark.seed, columns, rows);
  const cells = Buffer.alloc(columns * rows);
  for (let i = 0; i < signs.length; i++) cells[i] = 128 + signs[i]! * PATTERN_DEPTH;
  const { data, info } = await sharp(cells, { raw: { width: columns, height: rows, channels: 1 } })
    .resize({ width, height, fit: 'fill', kernel: 'linear' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The two layers for a picture (or one frame of an animated one) of this size, for sharp's composite. */
export async function pictureMarkLayers(mark: PictureMark, width: number, height: number, opts: { tile?: boolean } = {}): Promise<OverlayOptions[]> {
  const pattern = await patternImage(mark, width, height);
  const tile = opts.tile ?? false;
  return [
    { input: pattern.data, raw: { width: pattern.width, height: pattern.height, channels: 3 }, blend: 'soft-light', tile, top: 0, left: 0 },
    { input: textSvg(mark, width, height), tile, top: 0, left: 0 },
  ];
}

/** Decoded pixels marked as the media route marks them (the tracer's view of a buyer's copy). */
export async function markRawPixels(
  mark: PictureMark,
  pixels: { data: Buffer; width: number; height: number; channels: 1 | 2 | 3 | 4 },
): Promise<Buffer> {
  const layers = await pictureMarkLayers(mark, pixels.width, pixels.height);
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } })
    .composite(layers)
    .removeAlpha()
    .greyscale()
    .raw()
    .toBuffer();
}

/** Pixels a marked copy may have (our own stored variants: at most the pipeline's 40 MP). */
const MAX_MARKED_PIXELS = 40_000_000;

/**
 * A stored picture (one of our own variants: JPEG or WebP, maybe animated) with the viewer's mark,
 * encoded again in its own format. An animated WebP gets the mark on every frame.
 */
export async function markPicture(input: Buffer, mark: PictureMark, contentType: string): Promise<Buffer> {
  const meta = await sharp(input, { limitInputPixels: MAX_MARKED_PIXELS, animated: true }).metadata();
  const animated = (meta.pages ?? 1) > 1;
  const width = meta.width ?? 0;
  const frameHeight = (animated ? meta.pageHeight : meta.height) ?? 0;
  if (!width || !frameHeight) throw new Error('stored picture without a size');
  const layers = await pictureMarkLayers(mark, width, frameHeight, { tile: animated });
  const pipeline = sharp(input, { limitInputPixels: MAX_MARKED_PIXELS, animated }).composite(layers);
  return contentType === 'image/webp'
    ? pipeline.webp({ quality: 82, effort: 2 }).toBuffer()
    : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 86 }).toBuffer();
}
