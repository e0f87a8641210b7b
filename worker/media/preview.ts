import path from 'node:path';
import sharp from 'sharp';
import type { MediaKind } from '../../common/enums';
import type { OutputFile } from './types';

/**
 * The 'preview' of a premium post: what the locked card shows to viewers without a
 * subscription (the only variant the media route serves them). Tiny and blurred beyond
 * recognition, like the demo seed's.
 */
const PREVIEW_WIDTH = 64;

/** From a picture of the post (the web image, or the video's poster). */
export async function blurredPreview(from: string, workDir: string): Promise<OutputFile> {
  const out = path.join(workDir, 'preview.jpg');
  const info = await sharp(from, { animated: false }).resize({ width: PREVIEW_WIDTH }).blur(6).jpeg({ quality: 70 }).toFile(out);
  return { variant: 'preview', path: out, ext: 'jpg', contentType: 'image/jpeg', width: info.width, height: info.height };
}

const PALETTES: Record<string, [string, string]> = {
  audio: ['#4f46e5', '#db2777'],
  pdf: ['#b91c1c', '#f59e0b'],
  document: ['#0f766e', '#2563eb'],
};

/** For audio, PDFs and documents, which have no picture: a card in the kind's colours, blurred. */
export async function cardPreview(kind: MediaKind, workDir: string): Promise<OutputFile> {
  const [from, to] = PALETTES[kind] ?? PALETTES.document!;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="320" height="320" fill="url(#g)"/>
    <circle cx="160" cy="150" r="70" fill="#ffffff" fill-opacity="0.25"/>
    <rect x="70" y="250" width="180" height="18" rx="9" fill="#ffffff" fill-opacity="0.3"/>
  </svg>`;
  const out = path.join(workDir, 'preview.jpg');
  const info = await sharp(Buffer.from(svg)).resize({ width: PREVIEW_WIDTH }).blur(4).jpeg({ quality: 70 }).toFile(out);
  return { variant: 'preview', path: out, ext: 'jpg', contentType: 'image/jpeg', width: info.width, height: info.height };
}
