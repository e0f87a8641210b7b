import sharp from 'sharp';
import type { WatermarkPosition } from '../../common/enums';

/**
 * The creator's watermark, drawn once as a transparent PNG by sharp (librsvg renders the SVG
 * text with the system fonts) and laid over images by sharp and over video frames by ffmpeg's
 * overlay filter, so both look the same and ffmpeg needs no font of its own (drawtext would).
 * The PNG carries its margin as transparent padding, so placing it is only a matter of gravity.
 */
export interface WatermarkSpec {
  /** the custom text, or @username */
  label: string;
  position: WatermarkPosition;
}

export interface RenderedWatermark {
  png: Buffer;
  width: number;
  height: number;
  /** sharp composite gravity */
  gravity: 'centre' | 'northwest' | 'northeast' | 'southwest' | 'southeast';
  /** ffmpeg overlay position (W/H: frame, w/h: watermark) */
  overlay: { x: string; y: string };
}

const PLACEMENT: Record<WatermarkPosition, Pick<RenderedWatermark, 'gravity' | 'overlay'>> = {
  center: { gravity: 'centre', overlay: { x: '(W-w)/2', y: '(H-h)/2' } },
  'top-left': { gravity: 'northwest', overlay: { x: '0', y: '0' } },
  'top-right': { gravity: 'northeast', overlay: { x: 'W-w', y: '0' } },
  'bottom-left': { gravity: 'southwest', overlay: { x: '0', y: 'H-h' } },
  'bottom-right': { gravity: 'southeast', overlay: { x: 'W-w', y: 'H-h' } },
};

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Text size for a frame: about 5% of its shorter side, between 10 and 96 px. */
export function watermarkFontSize(frameWidth: number, frameHeight: number): number {
  return Math.max(10, Math.min(96, Math.round(Math.min(frameWidth, frameHeight) * 0.05)));
}

/** Rendered watermarks by label, position, text size and bounds: a creator's uploads mostly repeat them. */
const cache = new Map<string, Promise<RenderedWatermark>>();
const CACHE_SIZE = 64;

/**
 * The watermark for a frame of this size: white, partly transparent, with a thin dark outline so
 * it reads on light and dark pictures alike. Never wider than 90% of the frame.
 */
export function renderWatermark(spec: WatermarkSpec, frameWidth: number, frameHeight: number): Promise<RenderedWatermark> {
  const size = watermarkFontSize(frameWidth, frameHeight);
  const margin = Math.round(size * 0.8);
  const maxWidth = Math.max(1, Math.floor(frameWidth * 0.9) - 2 * margin);
  const maxHeight = Math.max(1, Math.floor(frameHeight * 0.9) - 2 * margin);
  const key = JSON.stringify([spec.label, spec.position, size, Math.min(maxWidth, 10_000), Math.min(maxHeight, 10_000)]);
  let rendered = cache.get(key);
  if (!rendered) {
    rendered = draw(spec, size, margin, maxWidth, maxHeight);
    rendered.catch(() => cache.delete(key));
    cache.set(key, rendered);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return rendered;
}

async function draw(spec: WatermarkSpec, size: number, margin: number, maxWidth: number, maxHeight: number): Promise<RenderedWatermark> {
  // generous canvas: trimmed to the drawn text below, whatever the font's real advance widths are
  const canvasWidth = Math.ceil(spec.label.length * size * 0.9 + size * 2);
  const canvasHeight = Math.ceil(size * 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${canvasWidth}" height="${canvasHeight}">
    <text x="${size}" y="${Math.round(size * 1.35)}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold"
      font-size="${size}" fill="#ffffff" fill-opacity="0.7" stroke="#000000" stroke-opacity="0.45"
      stroke-width="${Math.max(1, size / 16).toFixed(1)}">${xml(spec.label)}</text>
  </svg>`;
  const png = { compressionLevel: 1 } as const;
  let text = await sharp(Buffer.from(svg)).png(png).trim({ background: { r: 0, g: 0, b: 0, alpha: 0 }, threshold: 1 }).toBuffer();
  const trimmed = await sharp(text).metadata();
  if ((trimmed.width ?? 0) > maxWidth || (trimmed.height ?? 0) > maxHeight) {
    text = await sharp(text).resize({ width: maxWidth, height: maxHeight, fit: 'inside' }).png(png).toBuffer();
  }
  const { data, info } = await sharp(text)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png(png)
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, ...PLACEMENT[spec.position] };
}
