import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import type { MediaVariant } from '../../common/enums';
import { resolveFfmpegPath, resolveFfprobePath } from '../../worker/media/ffmpeg-path';
import { buildPdf } from './pdf';

const run = promisify(execFile);

/** One stored file of a post, before it has a key. */
export interface MediaFile {
  variant: MediaVariant;
  ext: string;
  contentType: string;
  bytes: Buffer;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

export type Palette = readonly [string, string, string];

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small deterministic PRNG so the demo looks the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A gradient with soft shapes: the stand-in for a photo or an artwork. */
function backgroundSvg(width: number, height: number, palette: Palette, seed: number): string {
  const random = prng(seed);
  const shapes = Array.from({ length: 7 }, (_, i) => {
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    const r = Math.round(height * (0.12 + random() * 0.35));
    const colour = palette[i % 3];
    const opacity = (0.25 + random() * 0.35).toFixed(2);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}" fill-opacity="${opacity}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="${palette[0]}"/><stop offset="1" stop-color="${palette[1]}"/>
      </linearGradient>
      <filter id="soft"><feGaussianBlur stdDeviation="${Math.round(width / 60)}"/></filter>
    </defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <g filter="url(#soft)">${shapes}</g>
  </svg>`;
}

/** Rendered at a quarter of the size and scaled up: the shapes are soft anyway, and blur is costly. */
async function background(width: number, height: number, palette: Palette, seed: number): Promise<Buffer> {
  const svg = Buffer.from(backgroundSvg(Math.round(width / 4), Math.round(height / 4), palette, seed));
  return sharp(svg).resize({ width, height, kernel: 'cubic' }).png({ compressionLevel: 1 }).toBuffer();
}

function captionSvg(width: number, height: number, title: string, subtitle: string): string {
  const size = Math.round(width / 16);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="${height - size * 3.2}" width="${width}" height="${size * 3.2}" fill="#000" fill-opacity="0.28"/>
    <text x="${size}" y="${height - size * 1.6}" font-family="DejaVu Sans, sans-serif" font-weight="bold"
      font-size="${size}" fill="#fff">${xml(title)}</text>
    <text x="${size}" y="${height - size * 0.7}" font-family="DejaVu Sans, sans-serif"
      font-size="${Math.round(size / 2.4)}" fill="#fff" fill-opacity="0.85">${xml(subtitle)}</text>
  </svg>`;
}

async function jpegFile(variant: MediaVariant, image: Sharp): Promise<MediaFile> {
  const { data, info } = await image.jpeg({ quality: variant === 'original' ? 90 : 82 }).toBuffer({ resolveWithObject: true });
  return { variant, ext: 'jpg', contentType: 'image/jpeg', bytes: data, width: info.width, height: info.height };
}

/** An image post: a 1600 px 'original' and the 1080 px 'web' and 320 px 'thumb' the worker would make. */
export async function imagePost(title: string, subtitle: string, palette: Palette, seed: number): Promise<MediaFile[]> {
  const [width, height] = [1600, 1200];
  const original = await jpegFile(
    'original',
    sharp(await background(width, height, palette, seed)).composite([{ input: Buffer.from(captionSvg(width, height, title, subtitle)) }]),
  );
  return [
    original,
    ...(await Promise.all([
      jpegFile('web', sharp(original.bytes).resize({ width: 1080 })),
      jpegFile('thumb', sharp(original.bytes).resize({ width: 320 })),
    ])),
  ];
}

/** A title card, the face of audio and documents when something must be blurred. */
export async function titleCard(title: string, palette: Palette, seed: number): Promise<Buffer> {
  const [width, height] = [640, 640];
  return sharp(await background(width, height, palette, seed))
    .composite([{ input: Buffer.from(captionSvg(width, height, title, '')) }])
    .jpeg()
    .toBuffer();
}

/** The teaser a non-subscriber sees of a premium post: tiny and blurred beyond recognition. */
export async function blurredPreview(source: Buffer): Promise<MediaFile> {
  return jpegFile('preview', sharp(source).resize({ width: 64 }).blur(6));
}

async function probeDuration(file: string): Promise<number> {
  const { stdout } = await run(resolveFfprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Math.round(Number.parseFloat(stdout) * 1000) / 1000;
}

/** Four seconds of test pattern and a 440 Hz tone, web-ready (H.264, AAC, moov first), plus its poster frame. */
export async function videoPost(workDir: string): Promise<MediaFile[]> {
  const ffmpeg = resolveFfmpegPath();
  const video = path.join(workDir, 'demo.mp4');
  const poster = path.join(workDir, 'poster.jpg');
  await run(ffmpeg, [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
    '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', video,
  ]);
  await run(ffmpeg, ['-y', '-v', 'error', '-ss', '1', '-i', video, '-frames:v', '1', '-q:v', '3', poster]);
  const [videoBytes, posterBytes, duration] = await Promise.all([readFile(video), readFile(poster), probeDuration(video)]);
  return [
    { variant: 'original', ext: 'mp4', contentType: 'video/mp4', bytes: videoBytes, width: 640, height: 360, durationSeconds: duration },
    await jpegFile('poster', sharp(posterBytes)),
  ];
}

/** Six seconds of a C major chord with fades, as MP3. */
export async function audioPost(workDir: string): Promise<MediaFile[]> {
  const file = path.join(workDir, 'demo.mp3');
  const chord = '0.2*sin(2*PI*261.63*t)+0.15*sin(2*PI*329.63*t)+0.15*sin(2*PI*392*t)';
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', `aevalsrc=${chord}:s=44100:d=6`,
    '-af', 'afade=t=in:d=0.5,afade=t=out:st=5:d=1',
    '-c:a', 'libmp3lame', '-b:a', '96k', file,
  ]);
  return [{ variant: 'original', ext: 'mp3', contentType: 'audio/mpeg', bytes: await readFile(file), durationSeconds: await probeDuration(file) }];
}

export function pdfPost(title: string, pages: string[][]): MediaFile[] {
  return [{ variant: 'original', ext: 'pdf', contentType: 'application/pdf', bytes: buildPdf(title, pages) }];
}

export function textDocumentPost(text: string): MediaFile[] {
  return [{ variant: 'original', ext: 'txt', contentType: 'text/plain; charset=utf-8', bytes: Buffer.from(text, 'utf8') }];
}
