import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Channels, type OutputInfo, type Sharp } from 'sharp';
import { MEDIUM_WIDTH, THUMB_WIDTH, WEB_WIDTH } from '../../common/image-sources';
import { UPLOAD_TEXTS } from '../../common/texts';
import { MediaContentError, throwIfAborted } from './errors';
import { checkSvg } from './svg-check';
import type { OutputFile } from './types';
import { renderWatermark, type RenderedWatermark, type WatermarkSpec } from './watermark';

/**
 * Images through sharp, file in, files out: every served variant is re-encoded from the pixels
 * (which drops EXIF, GPS, XMP, IPTC, ICC and anything hidden after the image data), turned the
 * right way up first (EXIF orientation), limited to MAX_MEGAPIXELS, and watermarked.
 * SVG is checked and rasterised: user SVG is never served.
 */
export const MAX_MEGAPIXELS = 40;
const LIMIT_INPUT_PIXELS = MAX_MEGAPIXELS * 1_000_000;
/** Up to this size the decoded pixels are kept in memory once for all sizes (24 MP RGB: 72 MB). */
const RAW_ONCE_MEGAPIXELS = 24;

/**
 * original: full size; web, medium, thumb: the display sizes a `srcset` chooses from (1080, 720
 * and 320 px wide at most; common/image-sources.ts says why 720). Without medium a phone fetched
 * the 1080 px size for a picture it draws about 665 px wide.
 */
export const IMAGE_VARIANTS = [
  { variant: 'original', maxWidth: null, quality: 88 },
  { variant: 'web', maxWidth: WEB_WIDTH, quality: 82 },
  { variant: 'medium', maxWidth: MEDIUM_WIDTH, quality: 80 },
  { variant: 'thumb', maxWidth: THUMB_WIDTH, quality: 78 },
] as const;

export interface ProcessImageOptions {
  input: string;
  /** the upload's extension (svg is rasterised first) */
  ext: string;
  workDir: string;
  watermark: WatermarkSpec | null;
  signal?: AbortSignal;
}

export async function processImage(opts: ProcessImageOptions): Promise<OutputFile[]> {
  let input = opts.input;
  if (opts.ext === 'svg') input = await rasteriseSvg(opts.input, opts.workDir);

  const meta = await sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS, animated: true })
    .metadata()
    .catch((error: Error) => {
      throw contentError(error);
    });
  const pages = meta.pages ?? 1;
  const animated = pages > 1;
  let width = meta.width ?? 0;
  let height = (animated ? meta.pageHeight : meta.height) ?? 0;
  if (!width || !height) throw new MediaContentError(UPLOAD_TEXTS.damaged('image'));
  if (!animated && (meta.orientation ?? 1) >= 5) [width, height] = [height, width];
  // transparency and animation survive as WebP; everything else is a JPEG original with display
  // sizes in whichever of WebP and JPEG is smaller (encodeOpaque)
  const format = animated || meta.hasAlpha ? 'webp' : 'jpeg';

  // Still images up to RAW_ONCE_MEGAPIXELS are decoded and turned upright once, and every size is
  // made from those pixels (a third of the work of decoding per size); larger and animated ones
  // are decoded per size, to keep memory bounded.
  const rawOnce = !animated && width * height <= RAW_ONCE_MEGAPIXELS * 1_000_000;
  const source = () => sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS, animated }).autoOrient();
  let decoded: { data: Buffer; info: OutputInfo } | null = null;
  if (rawOnce) {
    decoded = await sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS })
      .autoOrient()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .catch((error: Error) => {
        throw contentError(error);
      });
  }

  const made = new Map<string, OutputFile>();
  type Spec = (typeof IMAGE_VARIANTS)[number];
  const sizeOf = (spec: Spec) => {
    const targetWidth = spec.maxWidth ? Math.min(width, spec.maxWidth) : width;
    return { targetWidth, targetHeight: Math.max(1, Math.round((height * targetWidth) / width)) };
  };
  const markFor = (targetWidth: number, targetHeight: number) => (opts.watermark ? renderWatermark(opts.watermark, targetWidth, targetHeight) : null);
  const write = async (spec: Spec, pipeline: Sharp, targetHeight: number) => {
    const done = (encodedAs: 'jpeg' | 'webp', info: OutputInfo, out: string) =>
      made.set(spec.variant, {
        variant: spec.variant,
        path: out,
        ext: extOf[encodedAs],
        contentType: `image/${encodedAs}`,
        width: info.width,
        height: animated ? targetHeight : info.height,
      });
    const fileOf = (encodedAs: 'jpeg' | 'webp') => path.join(opts.workDir, `${spec.variant}.${extOf[encodedAs]}`);
    try {
      if (format === 'jpeg' && spec.variant !== 'original') {
        const smaller = await smallerOfWebpAndJpeg(pipeline, spec.quality, spec.variant === 'web');
        await writeFile(fileOf(smaller.format), smaller.data);
        done(smaller.format, smaller.info, fileOf(smaller.format));
      } else {
        const encoder = format === 'jpeg' ? asJpeg(pipeline, spec.quality, false) : pipeline.webp({ quality: spec.quality });
        done(format, await encoder.toFile(fileOf(format)), fileOf(format));
      }
    } catch (error) {
      throw contentError(error as Error);
    }
  };

  if (decoded) {
    // Every size's pixels first, from the clean decoded ones: the smaller sizes resized (a
    // composite in the same sharp pipeline as the resize made sharp take several times as long),
    // the full size last, as its mark is then drawn straight into the decoded pixels. A picture
    // narrower than a size's limit gets a copy: a mark stamped into the decoded pixels would be
    // stamped again into the next size.
    const order = [...IMAGE_VARIANTS].reverse();
    const sized: Array<{ spec: Spec; pixels: { data: Buffer; info: OutputInfo }; targetWidth: number; targetHeight: number }> = [];
    for (const spec of order) {
      throwIfAborted(opts.signal);
      const { targetWidth, targetHeight } = sizeOf(spec);
      const pixels =
        targetWidth !== width
          ? await sharp(decoded.data, rawOf(decoded.info)).resize({ width: targetWidth }).raw().toBuffer({ resolveWithObject: true })
          : spec === order.at(-1)
            ? decoded
            : { data: Buffer.from(decoded.data), info: decoded.info };
      sized.push({ spec, pixels, targetWidth, targetHeight });
    }
    // Then each is marked (only the mark's own rectangle is blended: compositing over the whole
    // 12 MP frame cost as much as encoding it) and encoded, side by side on libuv's threads, as a
    // streamed sharp pipeline decodes on one core while it encodes on the other.
    await Promise.all(
      sized.map(async ({ spec, pixels, targetWidth, targetHeight }) => {
        const mark = await markFor(targetWidth, targetHeight);
        let pipeline = sharp(pixels.data, rawOf(pixels.info));
        if (mark && !(await stampInPlace(pixels, mark))) pipeline = pipeline.composite([{ input: mark.png, gravity: mark.gravity }]);
        await write(spec, pipeline, targetHeight);
      }),
    );
  } else {
    for (const spec of IMAGE_VARIANTS) {
      throwIfAborted(opts.signal);
      const { targetWidth, targetHeight } = sizeOf(spec);
      const mark = await markFor(targetWidth, targetHeight);
      let pipeline = source();
      if (targetWidth !== width) pipeline = pipeline.resize({ width: targetWidth });
      if (mark) pipeline = pipeline.composite([{ input: mark.png, gravity: mark.gravity }]);
      await write(spec, pipeline, targetHeight);
    }
  }
  return IMAGE_VARIANTS.map((spec) => made.get(spec.variant)!);
}

export const extOf = { jpeg: 'jpg', webp: 'webp' } as const;

const asJpeg = (pipeline: Sharp, quality: number, progressive: boolean) => pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, progressive });

/**
 * A display size of an opaque picture (or a video's poster), encoded as WebP and as JPEG from the same sized and marked
 * pixels, side by side: the smaller is kept. WebP was 30-55% smaller on every demo picture, photo,
 * screenshot and diagram tried, but a size must never grow for being modern.
 */
export async function smallerOfWebpAndJpeg(pipeline: Sharp, quality: number, progressive: boolean): Promise<{ data: Buffer; info: OutputInfo; format: 'jpeg' | 'webp' }> {
  const pixels = await pipeline.flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const from = () => sharp(pixels.data, rawOf(pixels.info));
  const [jpeg, webp] = await Promise.all([
    asJpeg(from(), quality, progressive).toBuffer({ resolveWithObject: true }),
    // effort 2: within 2% of the default's (4) bytes on the demo pictures, in a quarter of its time
    from().webp({ quality, effort: 2 }).toBuffer({ resolveWithObject: true }),
  ]);
  return webp.data.length < jpeg.data.length ? { ...webp, format: 'webp' } : { ...jpeg, format: 'jpeg' };
}

const rawOf = (info: { width: number; height: number; channels: Channels }) =>
  ({ raw: { width: info.width, height: info.height, channels: info.channels } }) as const;

/** Where a mark of this size goes on a frame, from its gravity (its margin is in its own padding). */
function markOrigin(frame: { width: number; height: number }, mark: RenderedWatermark): { left: number; top: number } {
  const right = frame.width - mark.width;
  const bottom = frame.height - mark.height;
  switch (mark.gravity) {
    case 'northwest':
      return { left: 0, top: 0 };
    case 'northeast':
      return { left: right, top: 0 };
    case 'southwest':
      return { left: 0, top: bottom };
    case 'southeast':
      return { left: right, top: bottom };
    default:
      return { left: Math.floor(right / 2), top: Math.floor(bottom / 2) };
  }
}

/**
 * Blends the mark into decoded pixels where it goes, in place: only the mark's rectangle is read,
 * blended by sharp and written back. False (nothing changed) when the mark does not fit or sharp
 * answers another pixel layout; the caller then composites the usual way.
 */
async function stampInPlace(decoded: { data: Buffer; info: OutputInfo }, mark: RenderedWatermark): Promise<boolean> {
  const { data, info } = decoded;
  const { left, top } = markOrigin(info, mark);
  if (left < 0 || top < 0 || mark.width > info.width || mark.height > info.height) return false;
  let patch = sharp(data, rawOf(info))
    .extract({ left, top, width: mark.width, height: mark.height })
    .composite([{ input: mark.png, left: 0, top: 0 }]);
  patch = info.channels === 4 ? patch.ensureAlpha() : patch.removeAlpha();
  const blended = await patch.raw().toBuffer({ resolveWithObject: true });
  if (blended.info.channels !== info.channels || blended.info.width !== mark.width || blended.info.height !== mark.height) return false;
  const row = mark.width * info.channels;
  for (let y = 0; y < mark.height; y++) {
    blended.data.copy(data, ((top + y) * info.width + left) * info.channels, y * row, (y + 1) * row);
  }
  return true;
}

/**
 * sharp reads only the user's bytes from a local file, so its refusals are about the file
 * (damaged, not an image, too many pixels); only resource errors are ours and worth a retry.
 */
export function contentError(error: Error): Error {
  if (/pixel limit/i.test(error.message)) return new MediaContentError(UPLOAD_TEXTS.tooManyPixels(MAX_MEGAPIXELS));
  if (/ENOSPC|No space left|EMFILE|ENOMEM|out of memory/i.test(error.message)) return error;
  return new MediaContentError(UPLOAD_TEXTS.damaged('image'));
}

/** A checked SVG (svg-check.ts) drawn to PNG at its own size, within the pixel limit; user SVG is never served. */
async function rasteriseSvg(file: string, workDir: string): Promise<string> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file));
  } catch {
    throw new MediaContentError(UPLOAD_TEXTS.typeMismatch('svg', null));
  }
  checkSvg(text);
  const png = await sharp(Buffer.from(text), { limitInputPixels: LIMIT_INPUT_PIXELS })
    .png()
    .toBuffer()
    .catch((error: Error) => {
      throw contentError(error);
    });
  const out = path.join(workDir, 'raster.png');
  await writeFile(out, png);
  return out;
}
