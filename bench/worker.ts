import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER, uploadRuleFor } from '../common/uploads';
import { createApp } from '../server/app';
import { createSession, generateSessionToken } from '../server/auth/session';
import { loadConfig } from '../core/config';
import { createDeps } from '../core/create-deps';
import { makeVideo, photoJpegWithExif } from '../tests/helpers/media-fixtures';
import { resolveFfmpegPath } from '../worker/media/ffmpeg-path';
import { processUpload } from '../worker/media/pipeline';
import { VIDEO_ENCODING } from '../worker/media/video';
import { createBenchDb } from './lib/bench-db';

const run = promisify(execFile);
const MB = 1024 * 1024;

/**
 * The media worker and the upload endpoint, each beside the least work that gives a comparable
 * result, on the same file in the same run:
 *   - images: the worker's image pipeline (sniff, auto-orient, three re-encoded sizes with the
 *     watermark) on a 12 MP photo-like JPEG with phone EXIF (orientation 6, GPS), against plain sharp resizing the same file to 1080 px
 *     JPEG (and, for the overhead of orientation, sniffing and watermarking alone, plain sharp
 *     making the same three sizes);
 *   - video: the worker's video pipeline (probe, H.264/AAC transcode with the watermark
 *     overlaid, faststart, poster, probe) on 30 s of 720p, against plain ffmpeg transcoding the
 *     same file with the same encoder settings;
 *   - upload: 100 MB through the tus endpoint in 8 MB PATCHes (session check, tus bookkeeping,
 *     then the finish: copy into storage, post row, job) against one plain node:http PUT writing
 *     the same bytes to a file.
 */
export async function benchWorker(opts: { durationMs?: number } = {}): Promise<string[]> {
  const lines: string[] = [];
  const work = await mkdtemp(path.join(tmpdir(), 'bench-worker-'));
  try {
    lines.push(...(await benchImages(work, opts.durationMs ?? 5000)));
    lines.push(...(await benchVideo(work)));
    lines.push(...(await benchUpload(work)));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return lines;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Runs `fn` back to back for `durationMs`; returns how many per second. */
async function perSecond(durationMs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < durationMs) {
    await fn();
    count++;
  }
  return count / ((performance.now() - started) / 1000);
}

async function benchImages(work: string, durationMs: number): Promise<string[]> {
  const photo = path.join(work, 'photo.jpg');
  await writeFile(photo, await photoJpegWithExif(4000, 3000));
  const size = (await stat(photo)).size;
  const rule = uploadRuleFor('photo.jpg')!;
  let n = 0;
  const worker = await perSecond(durationMs, async () => {
    const dir = path.join(work, `img-${n++}`);
    await mkdir(dir);
    await processUpload({ input: photo, rule, workDir: dir, watermark: { label: '@benchcreator', position: 'bottom-right' }, premium: false });
    await rm(dir, { recursive: true, force: true });
  });
  const floor = await perSecond(durationMs, () => sharp(photo).resize({ width: 1080 }).jpeg({ quality: 82 }).toBuffer());
  const sameSizes = await perSecond(durationMs, async () => {
    await sharp(photo).jpeg({ quality: 88 }).toBuffer();
    await sharp(photo).resize({ width: 1080 }).jpeg({ quality: 82 }).toBuffer();
    await sharp(photo).resize({ width: 320 }).jpeg({ quality: 78 }).toBuffer();
  });
  return [
    `worker images: 4000x3000 JPEG with EXIF+GPS (${(size / MB).toFixed(1)} MB), one at a time`,
    `  floor: sharp resize 1080 + jpeg          ${floor.toFixed(2).padStart(7)} images/s`,
    `  floor: sharp same 3 sizes, no watermark  ${sameSizes.toFixed(2).padStart(7)} images/s`,
    `  worker: sniff, orient, 3 sizes, watermark ${worker.toFixed(2).padStart(6)} images/s  ${(worker / floor).toFixed(2)}x the resize floor, ${(worker / sameSizes).toFixed(2)}x the 3-size floor`,
  ];
}

async function benchVideo(work: string): Promise<string[]> {
  const made = await timed(() => makeVideo(work, { name: 'source-720p.mp4', seconds: 30, width: 1280, height: 720, fps: 30 }));
  const source = made.value;
  const rule = uploadRuleFor('source.mp4')!;
  const workDir = path.join(work, 'video');
  await mkdir(workDir);
  // best of two, alternating, as the machine may be busy with something else for a while
  const worker = { ms: Infinity };
  const floor = { ms: Infinity };
  for (let round = 0; round < 2; round++) {
    const w = await timed(() =>
      processUpload({ input: source, rule, workDir, watermark: { label: '@benchcreator', position: 'bottom-right' }, premium: true }),
    );
    const f = await timed(() => run(resolveFfmpegPath(), ['-y', '-v', 'error', '-i', source, ...VIDEO_ENCODING, path.join(work, 'floor.mp4')]));
    worker.ms = Math.min(worker.ms, w.ms);
    floor.ms = Math.min(floor.ms, f.ms);
  }
  return [
    `worker video: 30 s of 1280x720 at 30 fps with a tone (${((await stat(source)).size / MB).toFixed(1)} MB, made in ${(made.ms / 1000).toFixed(1)} s)`,
    `  floor: plain ffmpeg, same x264/AAC settings           ${(floor.ms / 1000).toFixed(1).padStart(5)} s (best of 2)`,
    `  worker: probe, transcode + watermark, poster, preview ${(worker.ms / 1000).toFixed(1).padStart(5)} s (best of 2)  ${(worker.ms / floor.ms).toFixed(2)}x the floor`,
  ];
}

async function benchUpload(work: string): Promise<string[]> {
  const bytes = randomBytes(100 * MB);
  const chunk = 8 * MB;
  const bench = await createBenchDb();
  const lines: string[] = [];
  try {
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: bench.url,
      SERVE_SPA: 'false',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      REDIS_PREFIX: `bench-upload-${Date.now()}`,
      STORAGE_DIR: path.join(work, 'storage'),
      UPLOADS_DIR: path.join(work, 'incoming'),
    });
    const deps = createDeps(config);
    const app = createApp(deps);
    await new Promise<void>((r) => app.httpServer.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
    config.appUrl = url;
    const user = await deps.db
      .insertInto('users')
      .values({ email: 'bench-creator@bench.test', password_hash: 'x', email_verified_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await deps.db.insertInto('profiles').values({ id: user.id, username: 'benchcreator', display_name: 'Bench', date_of_birth: '1990-01-01', is_creator: true }).execute();
    const token = generateSessionToken();
    await createSession(deps.db, token, user.id);
    const headers = { Cookie: `session=${token}`, Origin: url, 'Tus-Resumable': '1.0.0' };
    const patchMs: number[] = [];

    const tus = await timed(async () => {
      const metadata = Object.entries(toUploadMetadata({ filename: 'bench.mp4', isPaidContent: false, isNsfw: false, status: 'published' }))
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(',');
      const created = await fetch(`${url}/uploads`, { method: 'POST', headers: { ...headers, 'Upload-Length': String(bytes.length), 'Upload-Metadata': metadata } });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`);
      const location = `${url}${created.headers.get('location')}`;
      let offset = 0;
      let last: Response = created;
      while (offset < bytes.length) {
        const started = performance.now();
        last = await fetch(location, {
          method: 'PATCH',
          headers: { ...headers, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
          body: new Uint8Array(bytes.subarray(offset, offset + chunk)),
        });
        if (last.status !== 204) throw new Error(`patch: ${last.status} ${await last.text()}`);
        offset = Number(last.headers.get('upload-offset'));
        patchMs.push(performance.now() - started);
      }
      return last.headers.get(UPLOAD_POST_ID_HEADER);
    });
    if (!tus.value) throw new Error('no post id');

    const floorFile = path.join(work, 'floor-upload.bin');
    const floorServer = http.createServer((req, res) => {
      void pipeline(req, createWriteStream(floorFile)).then(() => res.writeHead(204).end());
    });
    await new Promise<void>((r) => floorServer.listen(0, '127.0.0.1', r));
    const floorUrl = `http://127.0.0.1:${(floorServer.address() as AddressInfo).port}/`;
    const floor = await timed(async () => {
      const res = await fetch(floorUrl, { method: 'PUT', body: new Uint8Array(bytes) });
      if (res.status !== 204) throw new Error(`floor: ${res.status}`);
    });
    const stored = await readFile(path.join(config.STORAGE_DIR, 'posts', tus.value, 'upload.mp4'));
    if (!stored.equals(bytes)) throw new Error('the stored upload differs from the bytes sent');

    await new Promise<void>((r) => floorServer.close(() => r()));
    await app.close();
    const keys = await deps.redis.keys(`${config.REDIS_PREFIX}:*`);
    if (keys.length) await deps.redis.del(...keys);
    await deps.close();
    const mbps = (ms: number) => (100 / (ms / 1000)).toFixed(0);
    lines.push(
      'upload: 100 MB over loopback',
      `  floor: one node:http PUT to a file              ${(floor.ms / 1000).toFixed(2).padStart(6)} s  ${mbps(floor.ms).padStart(5)} MB/s`,
      `  /uploads tus, 13 PATCHes of 8 MB + finish        ${(tus.ms / 1000).toFixed(2).padStart(6)} s  ${mbps(tus.ms).padStart(5)} MB/s  ${(tus.ms / floor.ms).toFixed(2)}x the floor's time`,
      `    of which a PATCH of 8 MB takes ${median(patchMs.slice(0, -1)).toFixed(0)} ms (median), and the last one, with the finish (copy into storage, post, job), ${patchMs.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    await bench.destroy();
  }
  return lines;
}
