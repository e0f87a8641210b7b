import { randomBytes } from 'node:crypto';
import { createStorage } from '../core/storage';
import { makePost, makeUser } from '../tests/helpers/factories';
import { startRedisCluster, type RunningRedisCluster } from '../tests/helpers/redis-cluster';
import { newS3Bucket, startS3Server } from '../tests/helpers/s3-server';
import { FEATURED_FLOOR_SQL, seedFeatured } from './featured';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { loadFigure, type Figure } from './lib/figures';
import { runLoad, type LoadOptions, type LoadResult } from './lib/load';
import { startAppProcess, startFloorProcess, startWorkerProcess, type BenchProcess } from './lib/processes';

/** One load split over the copies (half the connections each, at once): their requests per second add up. */
async function loadOverCopies(urls: string[], opts: LoadOptions): Promise<LoadResult> {
  const each = { ...opts, connections: Math.max(1, Math.round(opts.connections / urls.length)) };
  const results = await Promise.all(urls.map((url) => runLoad(url, each)));
  return {
    requests: results.reduce((n, r) => n + r.requests, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    rps: results.reduce((n, r) => n + r.rps, 0),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
  };
}

/** Jobs a worker process finished, by its own /metrics (queue_job_duration_seconds' count). */
async function jobsDone(metricsUrl: string, token: string): Promise<number> {
  const text = await (await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } })).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('queue_job_duration_seconds_count'))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

/** Issue 50 item 3's targets for the media redirects and the anonymous lists with the memory cache. */
const TARGET = { ratio: 0.8, p99Ratio: 1.5 };
const withTarget = (f: Figure): Figure => {
  const ok = f.ratio !== null && f.ratio >= TARGET.ratio && f.p99Ratio != null && f.p99Ratio <= TARGET.p99Ratio;
  return { ...f, note: `${f.note ?? ''}; target >= ${TARGET.ratio}x, p99 <= ${TARGET.p99Ratio}x: ${ok ? 'ok' : 'MISSED'}` };
};

/**
 * Past one machine (issue 31): two server copies and two workers on one PostgreSQL, one Redis and
 * one S3 server (s3rver on loopback), STORAGE_DRIVER=s3. Measures the media route's redirects per
 * second (the access check and a presigned URL; the bytes come from the store) and the anonymous
 * lists (featured creators, the visitor's feed) with each copy's memory cache and without it
 * (PUBLIC_CACHE=false), each beside the featured floor (one statement on node:http + pg).
 * Then again with the copies and the workers on a Redis Cluster of three masters (issue 50 item 6:
 * redis-server started here on free ports, REDIS_CLUSTER_NODES), beside the same floor.
 */
export async function benchTwoCopies(ctx: BenchContext): Promise<Array<Figure | string>> {
  const bench = await createBenchDb();
  const s3 = await startS3Server();
  const out: Array<Figure | string> = [];
  const started: BenchProcess[] = [];
  let stopCluster: (() => Promise<void>) | null = null;
  const workersRunning: BenchProcess[] = [];
  try {
    const bucket = await newS3Bucket(s3.url);
    await seedFeatured(bench.db, ctx.scale);
    const storage = createStorage({ STORAGE_DRIVER: 's3', STORAGE_DIR: '', ...bucket });
    const creator = await makeUser(bench.db, { isCreator: true });
    const free = await makePost(bench.db, storage, { creatorId: creator.id, kind: 'image' });
    for (let i = 0; i < 20; i++) await makePost(bench.db, storage, { creatorId: creator.id, kind: null, text: `post ${i}` });
    const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds };
    const floorServer = await startFloorProcess(bench.url, [{ sql: FEATURED_FLOOR_SQL, values: [] }]);
    started.push(floorServer);
    const floor = await runLoad(`${floorServer.url}/?r=0`, load);
    const feedPath = `/trpc/posts.feed?input=${encodeURIComponent(JSON.stringify({ json: { limit: 5, cursor: null } }))}`;

    const runs: Array<{ cache: boolean; cluster: boolean }> = [
      { cache: true, cluster: false },
      { cache: false, cluster: false },
      { cache: true, cluster: true },
    ];
    for (const { cache, cluster } of runs) {
      let redisCluster: RunningRedisCluster | null = null;
      if (cluster) {
        redisCluster = await startRedisCluster(3);
        stopCluster = redisCluster.stop;
      }
      const env = {
        ...bucket,
        PUBLIC_CACHE: String(cache),
        REDIS_PREFIX: `bench-two-${process.pid}`,
        METRICS_TOKEN: randomBytes(24).toString('hex'),
        ...(redisCluster && { REDIS_CLUSTER_NODES: redisCluster.nodes }),
      };
      const copies = await Promise.all([startAppProcess(bench.url, env), startAppProcess(bench.url, env)]);
      started.push(...copies);
      // the single-Redis workers keep running through the run without the cache (as before); the cluster's replace them
      if (cluster) for (const w of workersRunning.splice(0)) await w.stop();
      const workers = cache ? await Promise.all([startWorkerProcess(bench.url, env), startWorkerProcess(bench.url, env)]) : [];
      started.push(...workers);
      workersRunning.push(...workers);
      const urls = (path: string) => copies.map((c) => `${c.url}${path}`);
      const label = cluster ? 'on a Redis Cluster (3 masters), with the memory cache' : cache ? 'with the memory cache' : 'without it (PUBLIC_CACHE=false)';
      const measure = (f: Figure) => out.push(cache ? withTarget(f) : f);
      if (cache) {
        const redirect = await fetch(urls(`/media/${free.id}/web`)[0]!, { redirect: 'manual' });
        if (redirect.status !== 302) out.push(`  NOTE: the media route answered ${redirect.status}, not a redirect`);
        const media = await loadOverCopies(urls(`/media/${free.id}/web`), { ...load, expectRedirect: true });
        const where = cluster ? ' on a Redis Cluster (3 masters)' : '';
        measure(loadFigure(`two copies: GET /media/<free post>/web redirects (S3)${where}`, media, floor, 'the access check and a presigned URL per request (302), two copies at once; floor: the featured statement'));
      }
      measure(loadFigure(`two copies: anonymous /trpc/creators.featured ${label}`, await loadOverCopies(urls('/trpc/creators.featured'), load), floor, 'floor: the same six creators, one statement on node:http + pg'));
      measure(loadFigure(`two copies: anonymous /trpc/posts.feed ${label}`, await loadOverCopies(urls(feedPath), load), floor, 'the visitor feed\'s first page; floor: the featured statement'));
      if (redisCluster) {
        // the jobs the workers ran meanwhile (the repeatable ones they schedule at start), by their /metrics
        const done = await Promise.all(workers.map((w) => jobsDone(w.metricsUrl, env.METRICS_TOKEN)));
        out.push(`  the workers took their jobs from the cluster (${redisCluster.nodes}): ${done.reduce((a, b) => a + b, 0)} jobs done during the run`);
      }
      for (const p of copies) await p.stop();
      if (cluster) for (const w of workersRunning.splice(0)) await w.stop();
      if (redisCluster) {
        await redisCluster.stop();
        stopCluster = null;
      }
    }
  } finally {
    for (const p of started) await p.stop().catch(() => {});
    await stopCluster?.().catch(() => {});
    await s3.stop();
    await bench.destroy();
  }
  return out;
}
