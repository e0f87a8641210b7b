/**
 * Media fixtures made on the fly (sharp and ffmpeg), for the upload and worker tests and the
 * bench: nothing binary is checked in. Usable outside vitest.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { buildPdf } from '../../scripts/seed/pdf';
import { resolveFfmpegPath, resolveFfprobePath } from '../../worker/media/ffmpeg-path';

const run = promisify(execFile);

/**
 * A JPEG with EXIF that a phone would write: orientation 6 (turn 90° clockwise to view), camera
 * make and model, and a GPS position. Stored `width` x `height`; displayed `height` x `width`.
 * The picture is two flat halves (left dark blue, right light grey) so pixel regions are easy
 * to compare.
 */
export async function jpegWithExif(width = 1600, height = 1200): Promise<Buffer> {
  const half = Math.round(width / 2);
  const left = await sharp({ create: { width: half, height, channels: 3, background: '#203060' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#c8c8c8' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'FixtureCam', Model: 'Model 1', Software: 'fixture' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 55/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '18/1 25/1 2600/100' },
    })
    .toBuffer();
}

/**
 * A photo-like JPEG (soft noise, so it compresses like a real picture: about 2.5 MB at
 * 4000x3000) with the same phone EXIF as `jpegWithExif`. For benchmarks.
 */
export async function photoJpegWithExif(width = 4000, height = 3000): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(1.5)
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'FixtureCam', Model: 'Model 1' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 55/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '18/1 25/1 2600/100' },
    })
    .toBuffer();
}

/** A flat PNG, optionally transparent. */
export function flatPng(width: number, height: number, background: string | { r: number; g: number; b: number; alpha?: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background } }).png().toBuffer();
}

/** The tag ids of an EXIF block's first IFD (0x8825 is the GPS IFD pointer, 0x0112 orientation). */
export function exifIfd0Tags(exif: Buffer): number[] {
  const start = exif.indexOf('II*\0') >= 0 ? exif.indexOf('II*\0') : exif.indexOf('MM\0*');
  if (start < 0) return [];
  const tiff = exif.subarray(start);
  const le = tiff[0] === 0x49;
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  return Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
}
export const EXIF_GPS_POINTER = 0x8825;

/**
 * A test-pattern video with a tone: H.264 (ultrafast) + AAC in MP4 (or another container by
 * extension). `faststart: false` leaves the index at the end, as most cameras do.
 */
export async function makeVideo(
  dir: string,
  opts: { name?: string; seconds: number; width: number; height: number; fps?: number; faststart?: boolean; audio?: boolean },
): Promise<string> {
  const file = path.join(dir, opts.name ?? `video-${opts.width}x${opts.height}-${opts.seconds}s.mp4`);
  const args = ['-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${opts.width}x${opts.height}:rate=${opts.fps ?? 25}`];
  if (opts.audio !== false) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100');
  args.push('-t', String(opts.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  if (opts.audio !== false) args.push('-c:a', 'aac', '-b:a', '96k');
  if (opts.faststart) args.push('-movflags', '+faststart');
  args.push(file);
  await run(resolveFfmpegPath(), args);
  return file;
}

/** A tone: mp3, wav or ogg (vorbis) by the name's extension. */
export async function makeAudio(dir: string, name: string, seconds = 3): Promise<string> {
  const file = path.join(dir, name);
  const codec = name.endsWith('.mp3') ? ['-c:a', 'libmp3lame', '-b:a', '96k'] : name.endsWith('.ogg') ? ['-c:a', 'libvorbis'] : [];
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=523:sample_rate=44100:duration=${seconds}`, ...codec, file,
  ]);
  return file;
}

export function makePdf(): Buffer {
  return buildPdf('Fixture document', [['A tiny PDF made by the test.', 'Second line.'], ['Page two.']]);
}

/** What a Windows program starts with: 'MZ', a DOS stub, then 'PE'. Renamed .jpg by the tests. */
export function fakeExe(): Buffer {
  const bytes = Buffer.alloc(4096, 0);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

export interface ProbeInfo {
  streams: { codec_type: string; codec_name: string; profile?: string; pix_fmt?: string; width?: number; height?: number }[];
  format: { duration?: string; format_name: string; tags?: Record<string, string> };
}

export async function ffprobeJson(file: string): Promise<ProbeInfo> {
  const { stdout } = await run(resolveFfprobePath(), ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout) as ProbeInfo;
}

/** The top-level boxes of an MP4 in file order ('moov' before 'mdat' means faststart). */
export async function mp4TopLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(offset + 8));
    if (size === 0) size = bytes.length - offset;
    if (size < 8) break;
    boxes.push(type);
    offset += size;
  }
  return boxes;
}

/** Mean absolute difference of two same-sized raw regions (0-255). */
export async function regionDifference(a: Buffer, b: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<number> {
  const [ra, rb] = await Promise.all(
    [a, b].map((img) => sharp(img, { animated: false }).extract(region).removeAlpha().raw().toBuffer()),
  );
  let sum = 0;
  for (let i = 0; i < ra!.length; i++) sum += Math.abs(ra![i]! - rb![i]!);
  return sum / ra!.length;
}
