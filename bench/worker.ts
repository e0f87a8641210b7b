import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { toUploadMetadata, UPLOAD_POST_ID_HEADER, uploadRuleFor } from '../common/uploads';
import { createSession, generateSessionToken } from '../server/auth/session';
import { makeVideo, photoJpegWithExif } from '../tests/helpers/media-fixtures';
import { resolveFfmpegPath } from '../worker/media/ffmpeg-path';
import { IMAGE_VARIANTS } from '../worker/media/image';
import { processUpload } from '../worker/media/pipeline';
import { VIDEO_ENCODING } from '../worker/media/video';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, type Figure } from './lib/figures';
import { startAppProcess, startFloorProcess } from './lib/processes';

const run = promisify(execFile);
const MB = 1024 * 1024;

/**
 * The media worker and the upload endpoint, each beside the least work that gives a comparable
 * result, on the same file in the same run:
 *   - images: the worker's image pipeline (sniff, auto-orient, three re-encoded sizes with the
 *     watermark) on a 12 MP photo-like JPEG with phone EXIF (orientation 6, GPS), against plain
 *     sharp making the same three sizes with the same encoder settings (no orientation, no mark);
 *   - video: the worker's video pipeline (probe, H.264/AAC transcode with the watermark
 *     overlaid, faststart, poster, probe) on 30 s of 720p, against plain ffmpeg transcoding the
 *     same file with the same encoder settings;
 *   - upload: 100 MB through the tus endpoint of the app in its own process (session check, lock,
 *     tus bookkeeping, then the finish: link into storage, post row, job) against one plain
 *     node:http PUT writing the same bytes to a file, in a process of its own too.
 */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Runs `fn` back to back for `durationMs`; returns how many per second and the CPU ms each took. */
async function perSecond(durationMs: number, fn: () => Promise<unknown>): Promise<{ rate: number; cpuMs: number }> {
  let count = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (count === 0 || performance.now() - started < durationMs) {
    await fn();
    count++;
  }
  const used = process.cpuUsage(cpu);
  return { rate: count / ((performance.now() - started) / 1000), cpuMs: (used.user + used.system) / 1000 / count };
}

/** One photo through the pipeline beside plain sharp making the same three output sizes. */
async function pipelineBesidePlainSharp(
  ctx: BenchContext,
  work: string,
  photo: { file: string; label: string; quarterTurned: boolean },
): Promise<Figure> {
  const rule = uploadRuleFor('photo.jpg')!;
  let n = 0;
  const worker = async () => {
    const dir = path.join(work, `img-${n++}`);
    await mkdir(dir);
    await processUpload({ input: photo.file, rule, workDir: dir, watermark: { label: '@benchcreator', position: 'bottom-right' }, premium: false });
    await rm(dir, { recursive: true, force: true });
  };
  // The same three output sizes in pixels as the pipeline's, with the same encoder settings, each
  // straight from the file (sharp's fastest way: JPEG shrink-on-load), but neither turned upright
  // nor marked: a quarter-turned photo is limited by its stored height, which becomes the width.
  const floor = async () => {
    for (const spec of IMAGE_VARIANTS) {
      let p = sharp(photo.file);
      if (spec.maxWidth) p = p.resize(photo.quarterTurned ? { height: spec.maxWidth } : { width: spec.maxWidth });
      await p.jpeg({ quality: spec.quality, progressive: spec.variant === 'web' }).toBuffer();
    }
  };
  await worker();
  await floor();
  // alternating rounds, the median of each: the machine's other load falls on both alike
  const phase = ctx.quick ? 1000 : Math.max(2000, (ctx.seconds * 1000) / 2);
  const rounds = ctx.quick ? 1 : 3;
  const workerRuns: { rate: number; cpuMs: number }[] = [];
  const floorRuns: { rate: number; cpuMs: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    floorRuns.push(await perSecond(phase, floor));
    workerRuns.push(await perSecond(phase, worker));
  }
  const wCpu = median(workerRuns.map((x) => x.cpuMs));
  const fCpu = median(floorRuns.map((x) => x.cpuMs));
  return figure(`image pipeline, ${photo.label}: sniff, orient, 3 sizes, watermark`, median(workerRuns.map((x) => x.rate)), median(floorRuns.map((x) => x.rate)), 'images/s', {
    note: `floor: plain sharp making the same 3 output sizes with the same settings, not turned upright, no mark; target >= 0.8x. CPU per image: ${wCpu.toFixed(0)} ms vs ${fCpu.toFixed(0)} ms (${(fCpu / wCpu).toFixed(2)}x)`,
  });
}

export async function benchImages(ctx: BenchContext): Promise<Array<Figure | string>> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-images-'));
  try {
    const [w, h] = ctx.quick ? [2000, 1500] : [4000, 3000];
    // a phone's portrait photo: stored sideways with EXIF orientation 6, upright 3000x4000
    const phone = path.join(work, 'phone.jpg');
    await writeFile(phone, await photoJpegWithExif(w, h));
    // a camera's landscape photo: the same pixels stored upright, no EXIF
    const camera = path.join(work, 'camera.jpg');
    await writeFile(camera, await sharp(phone).jpeg({ quality: 90 }).toBuffer());
    const size = (await stat(phone)).size;
    return [
      `images: ${w}x${h} JPEGs (${(size / MB).toFixed(1)} MB), one at a time, ${ctx.quick ? 1 : 3} alternating rounds each`,
      await pipelineBesidePlainSharp(ctx, work, { file: phone, label: 'phone photo turned upright (EXIF 6, GPS)', quarterTurned: true }),
      await pipelineBesidePlainSharp(ctx, work, { file: camera, label: 'upright camera photo', quarterTurned: false }),
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function benchVideo(ctx: BenchContext): Promise<Array<Figure | string>> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-video-'));
  try {
    const seconds = ctx.quick ? 2 : 30;
    const made = await timed(() => makeVideo(work, { name: 'source-720p.mp4', seconds, width: 1280, height: 720, fps: 30 }));
    const source = made.value;
    const rule = uploadRuleFor('source.mp4')!;
    const workDir = path.join(work, 'video');
    await mkdir(workDir);
    // best of two, alternating, as the machine may be busy with something else for a while
    const worker = { ms: Infinity };
    const floor = { ms: Infinity };
    const rounds = ctx.quick ? 1 : 2;
    for (let round = 0; round < rounds; round++) {
      const f = await timed(() => run(resolveFfmpegPath(), ['-y', '-v', 'error', '-i', source, ...VIDEO_ENCODING, path.join(work, 'floor.mp4')]));
      const w = await timed(() =>
        processUpload({ input: source, rule, workDir, watermark: { label: '@benchcreator', position: 'bottom-right' }, premium: true }),
      );
      worker.ms = Math.min(worker.ms, w.ms);
      floor.ms = Math.min(floor.ms, f.ms);
    }
    return [
      `video: ${seconds} s of 1280x720 at 30 fps with a tone (${((await stat(source)).size / MB).toFixed(1)} MB, made in ${(made.ms / 1000).toFixed(1)} s), best of ${rounds}`,
      figure('video pipeline: probe, transcode + mark, poster, preview', worker.ms / 1000, floor.ms / 1000, 's', {
        note: 'floor: plain ffmpeg transcoding the same file with the same x264/AAC settings; ratio = floor time / pipeline time, target >= 0.91 (within 1.1x)',
      }),
    ];
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function benchUpload(ctx: BenchContext): Promise<Array<Figure | string>> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-upload-'));
  const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? (ctx.quick ? 5 : 100));
  const bytes = randomBytes(sizeMb * MB);
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    // each upload is a post of its own: the processing limit must not refuse the later ones
    const app = await startAppProcess(bench.url, {
      STORAGE_DIR: path.join(work, 'storage'),
      UPLOADS_DIR: path.join(work, 'incoming'),
      MAX_PROCESSING_POSTS_PER_CREATOR: '1000',
    });
    const floorFile = path.join(work, 'floor-upload.bin');
    const floorServer = await startFloorProcess(bench.url, [], { FLOOR_PUT_FILE: floorFile });
    try {
      const url = app.url;
      const user = await bench.db
        .insertInto('users')
        .values({ email: 'bench-creator@bench.test', password_hash: 'x', email_verified_at: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await bench.db.insertInto('profiles').values({ id: user.id, username: 'benchcreator', display_name: 'Bench', date_of_birth: '1990-01-01', is_creator: true }).execute();
      const token = generateSessionToken();
      await createSession(bench.db, token, user.id);
      const headers = { Cookie: `session=${token}`, Origin: url, 'Tus-Resumable': '1.0.0' };

      const upload = async (chunk: number) => {
        const patchMs: number[] = [];
        const cpu0 = app.cpu();
        const result = await timed(async () => {
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
              body: bytes.subarray(offset, offset + chunk),
            });
            if (last.status !== 204) throw new Error(`patch: ${last.status} ${await last.text()}`);
            offset = Number(last.headers.get('upload-offset'));
            patchMs.push(performance.now() - started);
          }
          return last.headers.get(UPLOAD_POST_ID_HEADER);
        });
        if (!result.value) throw new Error('no post id');
        const stored = await readFile(path.join(work, 'storage', 'posts', result.value, 'upload.mp4'));
        if (!stored.equals(bytes)) throw new Error('the stored upload differs from the bytes sent');
        return { ms: result.ms, patchMs, cpu: app.cpu() - cpu0 };
      };
      const put = async () => {
        const cpu0 = floorServer.cpu();
        const t = await timed(async () => {
          const res = await fetch(`${floorServer.url}/put`, { method: 'PUT', body: bytes });
          if (res.status !== 204) throw new Error(`floor: ${res.status}`);
        });
        return { ms: t.ms, cpu: floorServer.cpu() - cpu0 };
      };

      // warm-up of both paths, then alternating, best of 3 (loopback I/O is noisy on a shared machine)
      await upload(bytes.length);
      await put();
      let floorMs = Infinity;
      let wholeMs = Infinity;
      let chunkedMs = Infinity;
      let chunkedPatches: number[] = [];
      const cpu = { floor: Infinity, whole: Infinity, chunked: Infinity };
      for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
        const p = await put();
        floorMs = Math.min(floorMs, p.ms);
        cpu.floor = Math.min(cpu.floor, p.cpu);
        const whole = await upload(bytes.length);
        wholeMs = Math.min(wholeMs, whole.ms);
        cpu.whole = Math.min(cpu.whole, whole.cpu);
        const chunked = await upload(5 * MB);
        cpu.chunked = Math.min(cpu.chunked, chunked.cpu);
        if (chunked.ms < chunkedMs) [chunkedMs, chunkedPatches] = [chunked.ms, chunked.patchMs];
      }
      const mbps = (ms: number) => sizeMb / (ms / 1000);
      out.push(
        `upload: ${sizeMb} MB over loopback, best of ${ctx.quick ? 1 : 3}`,
        figure('tus upload, one PATCH + finish', mbps(wholeMs), mbps(floorMs), 'MB/s', {
          note: `floor: one node:http PUT of the same bytes to a file (own process); target >= 0.8x. Server CPU: ${cpu.whole.toFixed(2)} s vs the floor's ${cpu.floor.toFixed(2)} s`,
        }),
        figure('tus upload, 5 MiB PATCHes (as the SPA) + finish', mbps(chunkedMs), mbps(floorMs), 'MB/s', {
          note: `server CPU ${cpu.chunked.toFixed(2)} s; a PATCH of 5 MiB takes ${chunkedPatches.length > 1 ? median(chunkedPatches.slice(0, -1)).toFixed(0) : '-'} ms (median); the last one, with the finish (link into storage, post, job), ${chunkedPatches.at(-1)!.toFixed(0)} ms`,
        }),
      );
    } finally {
      await floorServer.stop();
      await app.stop();
    }
  } finally {
    await bench.destroy();
    await rm(work, { recursive: true, force: true });
  }
  return out;
}
