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
  opts: {
    name?: string;
    seconds: number;
    width: number;
    height: number;
    fps?: number;
    faststart?: boolean;
    audio?: boolean;
    /** grain over the pattern (0-100): a picture as hard to compress as a camera's, so each rung of a ladder runs at its cap */
    noise?: number;
  },
): Promise<string> {
  const file = path.join(dir, opts.name ?? `video-${opts.width}x${opts.height}-${opts.seconds}s.mp4`);
  const args = ['-y', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${opts.width}x${opts.height}:rate=${opts.fps ?? 25}`];
  if (opts.audio !== false) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100');
  args.push('-t', String(opts.seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  // the grain changes every frame; the file's own rate is capped so that it stays a few MB
  if (opts.noise) args.push('-vf', `noise=alls=${opts.noise}:allf=t`, '-maxrate', '4M', '-bufsize', '8M');
  if (opts.audio !== false) args.push('-c:a', 'aac', '-b:a', '96k');
  if (opts.faststart) args.push('-movflags', '+faststart');
  args.push(file);
  await run(resolveFfmpegPath(), args);
  return file;
}

/**
 * A tone: mp3, wav or ogg (vorbis) by the name's extension. `small`: 8 kHz mono at 8 kb/s (mp3),
 * so that an hour stays a few MB.
 */
export async function makeAudio(dir: string, name: string, seconds = 3, opts: { small?: boolean } = {}): Promise<string> {
  const file = path.join(dir, name);
  const rate = opts.small ? 8000 : 44100;
  const bitrate = opts.small ? ['-ac', '1', '-b:a', '8k'] : ['-b:a', '96k'];
  const codec = name.endsWith('.mp3') ? ['-c:a', 'libmp3lame', ...bitrate] : name.endsWith('.ogg') ? ['-c:a', 'libvorbis'] : [];
  await run(resolveFfmpegPath(), [
    '-y', '-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=523:sample_rate=${rate}:duration=${seconds}`, ...codec, file,
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

/**
 * Text that makes an unguarded ffmpeg read another file (`target`, an absolute path): an HLS
 * playlist, a DASH manifest and an ffconcat list.
 */
export function mediaLists(target: string): Record<'hls' | 'dash' | 'ffconcat', Buffer> {
  return {
    hls: Buffer.from(`#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\n${target}\n#EXT-X-ENDLIST\n`),
    dash: Buffer.from(
      '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" ' +
        'mediaPresentationDuration="PT2S" minBufferTime="PT1S"><Period><AdaptationSet mimeType="video/mp4">' +
        `<Representation id="1" bandwidth="100000"><BaseURL>${target}</BaseURL></Representation></AdaptationSet></Period></MPD>\n`,
    ),
    ffconcat: Buffer.from(`ffconcat version 1.0\nfile ${target}\n`),
  };
}

/** An ID3v2.4 tag with a footer: ffmpeg skips 20 bytes before it probes, file-type only 10. */
const ID3_WITH_FOOTER = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0x10, 0, 0, 0, 0]);

/**
 * What puts a list past a byte sniffer as this extension: for mp4/mov/mp3/ogg, an ID3 tag whose
 * footer flag makes ffmpeg start reading 10 bytes later than file-type, those 10 bytes being the
 * start of an MP4 box, an MPEG frame or an Ogg page (file-type sees that type, ffmpeg sees the
 * list); for avi/webm/wav the container's own header in front of the list.
 */
export const FAKE_MEDIA_PREFIX: Record<'mp4' | 'mov' | 'avi' | 'webm' | 'mp3' | 'ogg' | 'wav', Buffer> = {
  mp4: Buffer.concat([ID3_WITH_FOOTER, Buffer.from('    ftypis', 'latin1')]),
  mov: Buffer.concat([ID3_WITH_FOOTER, Buffer.from('    ftypis', 'latin1')]),
  mp3: Buffer.concat([ID3_WITH_FOOTER, Buffer.from([0xff, 0xfb, 0x90, 0x64, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20])]),
  ogg: Buffer.concat([ID3_WITH_FOOTER, Buffer.from('OggS\0\x02\0\0\0\0', 'latin1')]),
  avi: Buffer.from('RIFF    AVI ', 'latin1'),
  webm: Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]),
  wav: Buffer.from('RIFF    WAVE', 'latin1'),
};

export interface HostileMedia {
  name: string;
  bytes: Buffer;
  category: 'video' | 'audio';
}

/** Every list × every video and audio extension, bare and behind its fake prefix, pointing at `target`. */
export function hostileMediaFiles(target: string): HostileMedia[] {
  const files: HostileMedia[] = [];
  for (const [kind, list] of Object.entries(mediaLists(target))) {
    for (const [ext, prefix] of Object.entries(FAKE_MEDIA_PREFIX)) {
      const category = ['mp3', 'ogg', 'wav'].includes(ext) ? 'audio' : 'video';
      files.push({ name: `${kind}.${ext}`, bytes: list, category });
      files.push({ name: `${kind}-disguised.${ext}`, bytes: Buffer.concat([prefix, list]), category });
    }
  }
  return files;
}

/**
 * A picture with the structure of a photo (soft noise under a gradient and a disc), so that
 * aligning a scaled, cropped copy on it has something to hold on to. JPEG at quality 90.
 */
export async function photoLikeJpeg(width = 1200, height = 900): Promise<Buffer> {
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .blur(5)
    .png()
    .toBuffer();
  const shapes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#123"/><stop offset="1" stop-color="#eda"/></linearGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#g)"/><circle cx="${width * 0.3}" cy="${height * 0.4}" r="${height * 0.25}" fill="#a33"/></svg>`,
  );
  return sharp(noise).composite([{ input: shapes, blend: 'overlay' }]).jpeg({ quality: 90 }).toBuffer();
}
