import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { MediaVariant } from '../../common/enums';
import { resolveFfmpegPath, resolveFfprobePath } from '../../worker/media/ffmpeg-path';
import type { OutputFile } from '../../worker/media/types';
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

/** The picture an image post is uploaded as: 1600 x 1200, a JPEG as a camera would give it (the pipeline makes the rest). */
export async function imageSource(title: string, subtitle: string, palette: Palette, seed: number): Promise<Buffer> {
  const [width, height] = [1600, 1200];
  return sharp(await background(width, height, palette, seed))
    .composite([{ input: Buffer.from(captionSvg(width, height, title, subtitle)) }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function probeDuration(file: string): Promise<number> {
  const { stdout } = await run(resolveFfprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Math.round(Number.parseFloat(stdout) * 1000) / 1000;
}

/** Four seconds of test pattern and a 440 Hz tone, as a phone would upload it (H.264, AAC); written once to `workDir`. */
export async function videoSource(workDir: string): Promise<string> {
  const video = path.join(workDir, 'demo-source.mp4');
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
    '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', video,
  ]);
  if ((await probeDuration(video)) <= 0) throw new Error('the demo video came out empty');
  return video;
}

/** Six seconds of a C major chord with fades, as MP3; written once to `workDir`. */
export async function audioSource(workDir: string): Promise<string> {
  const file = path.join(workDir, 'demo-source.mp3');
  const chord = '0.2*sin(2*PI*261.63*t)+0.15*sin(2*PI*329.63*t)+0.15*sin(2*PI*392*t)';
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error',
    '-f', 'lavfi', '-i', `aevalsrc=${chord}:s=44100:d=6`,
    '-af', 'afade=t=in:d=0.5,afade=t=out:st=5:d=1',
    '-c:a', 'libmp3lame', '-b:a', '96k', file,
  ]);
  return file;
}

export function pdfSource(title: string, pages: string[][]): Buffer {
  return buildPdf(title, pages);
}

export function textDocumentSource(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** A pipeline output, read into memory with what its row needs. */
export async function readOutput(file: OutputFile): Promise<MediaFile> {
  return {
    variant: file.variant,
    ext: file.ext,
    contentType: file.contentType,
    bytes: await readFile(file.path),
    width: file.width,
    height: file.height,
    durationSeconds: file.durationSeconds,
  };
}
