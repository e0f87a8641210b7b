import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { toUploadMetadata } from '../common/uploads';
import { makePost, makeSessionCookie, makeUser } from '../tests/helpers/factories';
import { encodeMetadata } from '../tests/helpers/tus';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, percentile, type Figure } from './lib/figures';
import { startAppProcess, startWorkerProcess, type BenchProcess } from './lib/processes';

// the worker serves /metrics (its readiness here) only with a token
const METRICS_TOKEN = randomBytes(24).toString('hex');

type Kind = 'feed' | 'like' | 'comment' | 'message' | 'upload';

/**
 * The soak (`npm run bench -- --soak`): a bounded mixed traffic at a fixed rate (open loop: each
 * request leaves on its tick whatever the previous ones are doing) against the app and a worker,
 * each in its own process, for BENCH_SOAK_SECONDS (300; 20 with --quick) at BENCH_SOAK_RATE
 * requests per second (50): feed pages 60%, likes/unlikes 15%, comments 10%, messages 10%, and a
 * small image upload (create + PATCH, processed by the worker) every 2 s. Reported: errors by
 * kind, p99 per 30-second window (steady or not), RSS of the server and the worker at the start and
 * the end, and their heaps right after a full collection (bench/lib/heap-probe.ts) before the
 * traffic, 30 s into it, every minute after, and at the end: a heap that grows from reading to
 * reading keeps what it should have let go.
 */
export async function benchSoak(ctx: BenchContext): Promise<Array<Figure | string>> {
  const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? (ctx.quick ? 20 : 300));
  const rate = Number(process.env.BENCH_SOAK_RATE ?? 50);
  const bench = await createBenchDb();
  const work = await mkdtemp(path.join(tmpdir(), 'bench-soak-'));
  const env = {
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    METRICS_TOKEN,
    MAX_PROCESSING_POSTS_PER_CREATOR: '1000',
  };
  const out: Array<Figure | string> = [];
  try {
    const creators = await Promise.all(Array.from({ length: 10 }, () => makeUser(bench.db, { isCreator: true })));
    const fans = await Promise.all(Array.from({ length: 50 }, () => makeUser(bench.db)));
    const posts: Awaited<ReturnType<typeof makePost>>[] = [];
    for (let i = 0; i < 200; i++) posts.push(await makePost(bench.db, null, { creatorId: creators[i % creators.length]!.id, createdAt: new Date(Date.now() - i * 60_000) }));
    const fanCookies = await Promise.all(fans.map(async (f) => (await makeSessionCookie(bench.db, f.id)).cookie));
    const creatorCookies = await Promise.all(creators.map(async (c) => (await makeSessionCookie(bench.db, c.id)).cookie));
    const creatorNames = await bench.db
      .selectFrom('profiles')
      .select('username')
      .where('id', 'in', creators.map((c) => c.id))
      .execute();
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#406080' } }).jpeg().toBuffer();

    const app = await startAppProcess(bench.url, env, { heapProbe: true });
    const worker = await startWorkerProcess(bench.url, env, { heapProbe: true });
    try {
      const url = app.url;
      const start = { appRss: app.rss(), workerRss: worker.rss() };
      const heaps: HeapReading[] = [await readHeaps('before', app, worker)];

      const trpc = (procedure: string, cookie: string, input: unknown) =>
        fetch(`${url}/trpc/${procedure}`, {
          method: 'POST',
          headers: { cookie, origin: url, 'content-type': 'application/json' },
          body: JSON.stringify({ json: input }),
        });
      const feedInput = encodeURIComponent(JSON.stringify({ json: { limit: 5 } }));
      const liked = new Set<string>();
      const uploadedPosts: string[] = [];
      let n = 0;
      const request = async (kind: Kind): Promise<number> => {
        const i = n++;
        const cookie = fanCookies[i % fanCookies.length]!;
        const post = posts[i % posts.length]!;
        switch (kind) {
          case 'feed': {
            const res = await fetch(`${url}/trpc/posts.feed?input=${feedInput}`, { headers: { cookie } });
            await res.arrayBuffer();
            return res.status;
          }
          case 'like': {
            const key = `${cookie}|${post.id}`;
            const res = await trpc(liked.has(key) ? 'posts.unlike' : 'posts.like', cookie, { postId: post.id });
            await res.arrayBuffer();
            if (liked.has(key)) liked.delete(key);
            else liked.add(key);
            return res.status;
          }
          case 'comment': {
            const res = await trpc('comments.add', cookie, { postId: post.id, text: `Soak comment ${i}` });
            await res.arrayBuffer();
            return res.status;
          }
          case 'message': {
            const res = await trpc('messages.send', cookie, { username: creatorNames[i % creatorNames.length]!.username, content: `Soak message ${i}`, clientId: randomUUID() });
            await res.arrayBuffer();
            return res.status;
          }
          case 'upload': {
            const c = creatorCookies[i % creatorCookies.length]!;
            const meta = encodeMetadata(toUploadMetadata({ filename: 'soak.jpg', isPaidContent: false, isNsfw: false, status: 'published' }));
            const headers = { cookie: c, origin: url, 'Tus-Resumable': '1.0.0' };
            const created = await fetch(`${url}/uploads`, { method: 'POST', headers: { ...headers, 'Upload-Length': String(image.length), 'Upload-Metadata': meta } });
            await created.arrayBuffer();
            if (created.status !== 201) return created.status;
            const patched = await fetch(`${url}${created.headers.get('location')}`, {
              method: 'PATCH',
              headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
              body: image,
            });
            await patched.arrayBuffer();
            const postId = patched.headers.get('upload-post-id');
            if (postId) uploadedPosts.push(postId);
            return postId ? patched.status : 599;
          }
        }
      };

      const mix: Kind[] = [...Array<Kind>(12).fill('feed'), ...Array<Kind>(3).fill('like'), ...Array<Kind>(2).fill('comment'), ...Array<Kind>(2).fill('message')];
      const samples: { at: number; ms: number; kind: Kind; ok: boolean; status: number }[] = [];
      const inFlight = new Set<Promise<void>>();
      const fire = (kind: Kind) => {
        const t0 = performance.now();
        const p = request(kind)
          .catch(() => 0)
          .then((status) => {
            samples.push({ at: t0 - begun, ms: performance.now() - t0, kind, ok: status >= 200 && status < 300, status });
            inFlight.delete(p);
          });
        inFlight.add(p);
      };
      const begun = performance.now();
      const readings: Promise<HeapReading>[] = [];
      const timers = heapReadingTimes(seconds).map((atS) =>
        setTimeout(() => readings.push(readHeaps(`${atS} s`, app, worker)), atS * 1000),
      );
      const total = seconds * rate;
      for (let k = 0; k < total; k++) {
        const due = begun + (k * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        fire(mix[k % mix.length]!);
        if (k % (2 * rate) === 0) fire('upload');
      }
      await Promise.all(inFlight);
      const elapsed = (performance.now() - begun) / 1000;
      timers.forEach(clearTimeout);
      heaps.push(...(await Promise.all(readings)));
      // the worker made every upload into a post
      const deadline = Date.now() + 60_000;
      let published = 0;
      while (Date.now() < deadline) {
        const rows = uploadedPosts.length
          ? await bench.db.selectFrom('posts').select('status').where('id', 'in', uploadedPosts).execute()
          : [];
        published = rows.filter((r) => r.status === 'published').length;
        if (published === uploadedPosts.length) break;
        await sleep(500);
      }
      await sleep(2000);
      const end = { appRss: app.rss(), workerRss: worker.rss() };
      heaps.push(await readHeaps('end', app, worker));

      const windowS = Math.max(5, Math.min(30, Math.floor(seconds / 10)));
      const windows: number[] = [];
      for (let w = 0; w * windowS < seconds; w++) {
        const ms = samples.filter((s) => s.at >= w * windowS * 1000 && s.at < (w + 1) * windowS * 1000).map((s) => s.ms).sort((a, b) => a - b);
        if (ms.length) windows.push(Math.round(percentile(ms, 0.99)));
      }
      const errors = (['feed', 'like', 'comment', 'message', 'upload'] as Kind[]).map((k) => {
        const failed = samples.filter((s) => s.kind === k && !s.ok);
        const statuses = [...new Set(failed.map((s) => s.status))].map((st) => `${st}x${failed.filter((s) => s.status === st).length}`);
        return `${k} ${failed.length}/${samples.filter((s) => s.kind === k).length}${statuses.length ? ` (${statuses.join(' ')})` : ''}`;
      });
      const all = samples.map((s) => s.ms).sort((a, b) => a - b);
      const mib = (b: number) => (b / 2 ** 20).toFixed(1);
      out.push(
        `soak: ${samples.length} requests in ${elapsed.toFixed(0)} s at ${rate}/s (open loop), ${uploadedPosts.length} uploads (${published} published by the worker)`,
        `  errors by kind (failed/sent): ${errors.join(', ')}`,
        `  p99 per ${windowS} s window (ms): ${windows.join(' ')}`,
        `  heap after a full collection (MiB), ${heaps.map((h) => h.label).join(' / ')}: ` +
          `server ${heaps.map((h) => mib(h.app)).join(' ')}; worker ${heaps.map((h) => mib(h.worker)).join(' ')} ` +
          `(the longest collection ${Math.max(...heaps.map((h) => h.gcMs)).toFixed(0)} ms)`,
        `  RSS server ${mib(start.appRss)} -> ${mib(end.appRss)} MiB, worker ${mib(start.workerRss)} -> ${mib(end.workerRss)} MiB`,
        figure('soak: mixed requests, all kinds', samples.length / elapsed, rate, 'req/s', {
          p50: Math.round(percentile(all, 0.5) * 10) / 10,
          p99: Math.round(percentile(all, 0.99) * 10) / 10,
          errors: samples.filter((s) => !s.ok).length,
          note: `floor: the fixed rate asked for; p99 per window ${windows.join(' ')}; heap after a full collection, ${heaps[1]!.label} in -> end: server ${mib(heaps[1]!.app)}->${mib(heaps.at(-1)!.app)} MiB, worker ${mib(heaps[1]!.worker)}->${mib(heaps.at(-1)!.worker)} MiB`,
        }),
      );
    } finally {
      await worker.stop();
      await app.stop();
    }
  } finally {
    await bench.destroy();
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

interface HeapReading {
  label: string;
  app: number;
  worker: number;
  gcMs: number;
}

async function readHeaps(label: string, app: BenchProcess, worker: BenchProcess): Promise<HeapReading> {
  const [a, w] = await Promise.all([app.heapAfterGc(), worker.heapAfterGc()]);
  return { label, app: a.heapUsed, worker: w.heapUsed, gcMs: Math.max(a.gcMs, w.gcMs) };
}

/** 30 s in (the JIT and the pools warm), then every minute, while the traffic runs. */
function heapReadingTimes(seconds: number): number[] {
  const first = Math.min(30, Math.floor(seconds / 4));
  const times = [first];
  for (let t = 60; t < seconds; t += 60) times.push(t);
  return times;
}
