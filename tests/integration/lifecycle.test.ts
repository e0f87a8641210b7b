import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { io as connect } from 'socket.io-client';
import { createTestDb, type TestDatabase } from '../helpers/test-db';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, NODE_ENV: 'test', SERVE_SPA: 'false', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDb();
});
afterAll(async () => {
  await database?.destroy();
});

describe('server process', () => {
  it('drains and exits 0 on SIGTERM, disconnecting its sockets', async () => {
    const port = await freePort();
    const server = runServer({ DATABASE_URL: database.url, PORT: String(port), RUN_WORKER: 'true', REDIS_PREFIX: `lifecycle-${port}` });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const socket = connect(url, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await disconnected;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    const redis = new Redis();
    const keys = await redis.keys(`lifecycle-${port}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
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
