/**
 * `npm run bench -- --only=start`: `npm start` from a fresh database (one it must create, migrate
 * and seed) to its first /healthz answer, beside the 30 s target (issue 50 item 7). Two starts:
 * "cold" with an empty demo media cache and no build (a machine's first start) and "warm" with
 * what the cold one left (any later fresh database). Wall seconds and the user+sys CPU seconds of
 * the whole process tree (less moved by a shared machine's load).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Scenario } from './lib/context';
import { figure, type Figure } from './lib/figures';
import { freePort, repoRoot } from './lib/processes';

const TARGET_S = 30;
const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

async function startOnce(dir: string, label: string): Promise<{ wallS: number; cpuS: number }> {
  const name = `creator_bench_start_${Date.now().toString(36)}`;
  const port = await freePort();
  const env = {
    ...process.env, DATABASE_URL: `${serverUrl}/${name}`, PORT: String(port), REDIS_PREFIX: name, LOG_LEVEL: 'warn',
    STORAGE_DIR: path.join(dir, label, 'storage'), OUTBOX_DIR: path.join(dir, label, 'outbox'), UPLOADS_DIR: path.join(dir, label, 'uploads'),
    DIST_DIR: path.join(dir, 'dist'), DEMO_MEDIA_CACHE_DIR: path.join(dir, 'media-cache'),
  };
  const started = performance.now();
  // /usr/bin/time reports the CPU of every process below it once they are all waited for
  const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', 'npm', 'start'], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited before it was ready: ${stderr.slice(-500)}`);
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const wallS = (performance.now() - started) / 1000;
    // npm execs node: its only child is the server, which drains and exits on SIGTERM
    spawn('pkill', ['-TERM', '-P', String(child.pid)]);
    await exited;
    const [user, sys] = /cpu ([\d.]+) ([\d.]+)/.exec(stderr)?.slice(1).map(Number) ?? [NaN, NaN];
    return { wallS, cpuS: user! + sys! };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${name}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

export const benchStart: Scenario = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
  try {
    const out: Figure[] = [];
    for (const label of ['cold', 'warm'] as const) {
      const { wallS, cpuS } = await startOnce(dir, label);
      const verdict = wallS < TARGET_S ? 'ok' : 'MISSED';
      out.push(
        figure(`npm start, fresh database, ${label}`, wallS, null, 's', {
          note: `target < ${TARGET_S} s: ${verdict}; user+sys CPU ${cpuS.toFixed(1)} s; ${label === 'cold' ? 'no media cache, no build' : 'media cache and build of the cold start'}`,
        }),
      );
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
