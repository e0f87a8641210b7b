import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerEntry } from '../../scripts/build-server';
import { makeSessionCookie, type MadeUser } from './factories';
import type { QueueName } from '../../common/jobs';
import { startPrivateRedis, type PrivateRedis } from './private-redis';
import { freePort, killGroup, processClient, startProcess, waitUntilReady, type AppProcess } from './processes';
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
  /** the stack's own redis-server: `redis.stop()` is the outage, `redis.start()` brings it back empty */
  redis: PrivateRedis;
  server: AppProcess;
  /** what every process of the stack is started with */
  settings: Record<string, string>;
  /**
   * The test's own view of the app's queues, on a connection that waits out an outage (commands
   * wait for Redis instead of failing); closed by its close() or with the stack.
   */
  queues<N extends QueueName>(...names: N[]): Record<N, Queue> & { close(): Promise<void> };
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
  const redis = await startPrivateRedis();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const prefix = `${name}-${process.pid}`;
  const settings = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: prefix,
    APP_URL: url,
    STORAGE_DIR: path.join(work, 'storage'),
    UPLOADS_DIR: path.join(work, 'incoming'),
    OUTBOX_DIR: path.join(work, 'outbox'),
    ...env,
  };
  const processes: AppProcess[] = [];
  const views = new Set<() => Promise<void>>();
  const start = (script: ServerEntry, more: Record<string, string> = {}) => {
    const started = startProcess(script, { ...settings, ...more });
    processes.push(started);
    return started;
  };
  // its warnings and errors are kept (output()): what a test shows when the server misbehaves
  const server = start('scripts/serve.ts', { PORT: String(port), RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
  await waitUntilReady(url, 50_000, server);
  return {
    database,
    work,
    url,
    prefix,
    server,
    settings,
    start,
    redis,
    queues(...names) {
      const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
      connection.on('error', () => {});
      const queues = names.map((name) => {
        const queue = new Queue(name, { connection, prefix });
        queue.on('error', () => {});
        return queue;
      });
      const view = Object.fromEntries(names.map((name, i) => [name, queues[i]])) as Record<(typeof names)[number], Queue>;
      const close = async () => {
        views.delete(close);
        await Promise.all(queues.map((q) => q.close()));
        connection.disconnect();
      };
      views.add(close);
      return Object.assign(view, { close });
    },
    async signedIn(user) {
      const { token } = await makeSessionCookie(database.db, user.id);
      return { token, client: processClient(url, token) };
    },
    async stop() {
      // a test that failed during an outage: Redis back first, so that what it left open closes as usual
      if (!redis.running()) await redis.start();
      for (const close of [...views]) await close();
      for (const p of processes) {
        if (p.alive()) p.child.kill('SIGTERM');
        await p.exited;
        killGroup(p.child.pid);
      }
      await redis.stop();
      await database.destroy();
      await rm(work, { recursive: true, force: true });
    },
  };
}
