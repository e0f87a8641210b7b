import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerEntry } from '../../scripts/build-server';
import { makeSessionCookie, type MadeUser } from './factories';
import { freePort, killGroup, processClient, startProcess, startRedisServer, waitUntilReady, type AppProcess } from './processes';
import { createTestDb, type TestDatabase } from './test-db';
import type { TestClient } from './test-server';

/**
 * The app as an operator runs it, for the tests that take Redis away: the server (and workers when
 * a test starts them) as processes from the run's bundle, over a database and a work folder of
 * their own and a private redis-server the test stops and starts again empty on the same port.
 */
export interface OperatorStack {
  database: TestDatabase;
  /** the processes' storage, upload and mail folders are below it */
  work: string;
  url: string;
  prefix: string;
  redisUrl: string;
  server: AppProcess;
  /** what every process of the stack is started with */
  settings: Record<string, string>;
  stopRedis(): Promise<void>;
  /** a redis-server again on the same port, empty (a restart without persistence) */
  startRedis(): Promise<void>;
  /** another process with the stack's settings (a worker); stopped with the stack */
  start(script: ServerEntry, env?: Record<string, string>): AppProcess;
  /** a session of `user` and a client of the server carrying it */
  signedIn(user: MadeUser): Promise<{ token: string; client: TestClient }>;
  stop(): Promise<void>;
}

/** `name` tells the stack's folder and Redis prefix apart; `env` adds settings (shorter sweeps). */
export async function startOperatorStack(name: string, env: Record<string, string> = {}): Promise<OperatorStack> {
  const database = await createTestDb();
  const work = await mkdtemp(path.join(tmpdir(), `${name}-`));
  const redisPort = await freePort();
  let redis: { stop(): Promise<void> } | null = await startRedisServer(redisPort);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const prefix = `${name}-${process.pid}`;
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const settings = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    APP_URL: url,
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    ...env,
  };
  const processes: AppProcess[] = [];
  const start = (script: ServerEntry, more: Record<string, string> = {}) => {
    const started = startProcess(script, { ...settings, ...more });
    processes.push(started);
    return started;
  };
  const server = start('scripts/serve.ts', { PORT: String(port), RUN_WORKER: 'false' });
  await waitUntilReady(url, 50_000, server);
  return {
    database,
    work,
    url,
    prefix,
    redisUrl,
    server,
    settings,
    start,
    async stopRedis() {
      await redis?.stop();
      redis = null;
    },
    async startRedis() {
      redis = await startRedisServer(redisPort);
    },
    async signedIn(user) {
      const { token } = await makeSessionCookie(database.db, user.id);
      return { token, client: processClient(url, token) };
    },
    async stop() {
      for (const p of processes) {
        if (p.alive()) p.child.kill('SIGTERM');
        await p.exited;
        killGroup(p.child.pid);
      }
      await redis?.stop();
      await database.destroy();
      await rm(work, { recursive: true, force: true });
    },
  };
}
