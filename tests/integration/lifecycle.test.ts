import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { io as connect } from 'socket.io-client';
import { QUEUE_NAMES } from '../../common/jobs';
import { useTestDb } from '../helpers/test-db';
import { serverCommand } from '../helpers/server-command';
import { freePort } from '../helpers/processes';

function runServer(env: Record<string, string>) {
  const { command, args } = serverCommand('scripts/serve.ts');
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: 'test', SERVE_SPA: 'false', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** A busy machine may take a while to start a process; a signal sent before it is up would kill it unhandled. */
async function waitUntilReady(url: string) {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

async function deleteKeys(prefix: string) {
  const redis = new Redis();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}

const database = useTestDb();

describe('server process', () => {
  it('drains and exits 0 on SIGTERM, disconnecting its sockets', async () => {
    const port = await freePort();
    const server = runServer({ DATABASE_URL: database.url, PORT: String(port), RUN_WORKER: 'true', REDIS_PREFIX: `lifecycle-${port}` });
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(url);
    const socket = connect(url, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await disconnected;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    await deleteKeys(`lifecycle-${port}`);
  });

  it('runs the workers in its own process when RUN_WORKER=true, and none without it', async () => {
    const start = async (runWorker: boolean) => {
      const port = await freePort();
      const prefix = `lifecycle-${port}`;
      const server = runServer({ DATABASE_URL: database.url, PORT: String(port), RUN_WORKER: String(runWorker), REDIS_PREFIX: prefix });
      await waitUntilReady(`http://127.0.0.1:${port}`);
      return { server, prefix };
    };
    const workersOn = async (prefix: string) => {
      const connection = new Redis({ maxRetriesPerRequest: null });
      const queues = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix }));
      const counts = Object.fromEntries(await Promise.all(queues.map(async (q) => [q.name, await q.getWorkersCount()] as const)));
      await Promise.all(queues.map((q) => q.close()));
      connection.disconnect();
      return counts;
    };
    const [withWorkers, serverOnly] = await Promise.all([start(true), start(false)]);
    try {
      expect(await workersOn(withWorkers.prefix)).toEqual(Object.fromEntries(QUEUE_NAMES.map((name) => [name, 1])));
      expect(await workersOn(serverOnly.prefix)).toEqual(Object.fromEntries(QUEUE_NAMES.map((name) => [name, 0])));
    } finally {
      for (const { server } of [withWorkers, serverOnly]) server.child.kill('SIGTERM');
      expect(await withWorkers.server.exited).toBe(0);
      expect(await serverOnly.server.exited).toBe(0);
      await Promise.all([deleteKeys(withWorkers.prefix), deleteKeys(serverOnly.prefix)]);
    }
  });

  it('stops with one clear line when Redis is unreachable', async () => {
    const server = runServer({ DATABASE_URL: database.url, PORT: String(await freePort()), REDIS_URL: 'redis://127.0.0.1:1' });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'Redis is not reachable at 127.0.0.1:1: start it (docker compose up -d redis) or set REDIS_URL',
    );
  });

  it('stops with one clear line when PostgreSQL is unreachable', async () => {
    const server = runServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/creator', PORT: String(await freePort()) });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(
      'PostgreSQL is not reachable at 127.0.0.1:1: start it (docker compose up -d postgres) or set DATABASE_URL',
    );
  });
});
