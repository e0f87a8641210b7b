import { createTRPCClient, httpLink } from '@trpc/client';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import superjson from 'superjson';
import { inject } from 'vitest';
import { createApp, type App } from '../../server/app';
import type { Cluster } from 'ioredis';
import { loadConfig } from '../../core/config';
import { isCluster } from '../../core/redis';
import { createDeps, type CreateDepsOptions, type OwnedDeps } from '../../core/create-deps';
import type { AppRouter } from '../../server/trpc/router';
import type { QueueName } from '../../common/jobs';
import { startWorkers } from '../../worker/workers';
import { newS3Bucket } from './s3-server';
import { suiteFixture } from './suite-fixture';
import { createTestDb } from './test-db';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string;
  createdAt: string;
}

export interface TestClient {
  trpc: ReturnType<typeof createTRPCClient<AppRouter>>;
  /** the jar: cookie name → value */
  cookies(): Map<string, string>;
  /** raw Set-Cookie headers of the last response */
  lastSetCookie(): string[];
  lastResponse(): { status: number; headers: Headers } | null;
  /** null sends no Origin header at all */
  setOrigin(origin: string | null): void;
  /** a raw request with this client's cookies and Origin */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
}

export interface TestServer {
  url: string;
  deps: OwnedDeps;
  /** the server as createApp made it (its Express app, its Socket.IO server) */
  app: App;
  client(): TestClient;
  /** waits for queued mail jobs to be handled, then returns every mail written, oldest first */
  outbox(): Promise<OutboxMail[]>;
  /** waits until the queue has nothing waiting, active or delayed (15 s unless told) */
  drain(queue: QueueName, timeoutMs?: number): Promise<void>;
  /**
   * SQL of every query this server's pool ran, in order; `reset()` empties it. `withoutSession()`
   * leaves out the session reads, which a copy makes once every few seconds per session
   * (core/sessions/session-cache.ts), so that counts of a request's own queries do not depend on it.
   */
  queries: { list(): string[]; withoutSession(): string[]; reset(): void };
  close(): Promise<void>;
}

export interface TestServerOptions {
  /**
   * A second server process on the same database, Redis prefix and storage as `shareWith`
   * (what two copies behind a load balancer share). It runs no workers of its own, and its
   * close() leaves the shared data alone: close it before `shareWith`.
   */
  shareWith?: TestServer;
  /** the queues this server's in-process workers serve (default: all; [] for none) */
  workerQueues?: readonly QueueName[];
  /** extra settings (environment variables) for this server */
  env?: Record<string, string>;
  /** the payment provider and the business clock of this server and its workers (createDeps: tests override deps there) */
  payments?: CreateDepsOptions['payments'];
  clock?: CreateDepsOptions['clock'];
  /**
   * Where files live: 'disk' (a temp folder) or 's3' (a bucket of its own on the run's S3
   * server). Default: TEST_STORAGE_DRIVER, else disk; the integration-s3 project runs the
   * storage-touching files again with s3.
   */
  storage?: 'disk' | 's3';
}

/**
 * The test file's own server (startTestServer), started before its tests and closed after them.
 * Options that depend on another fixture (a fake provider's URL) are given as a function, read
 * when the server starts.
 */
export function useTestServer(opts: TestServerOptions | (() => TestServerOptions) = {}): TestServer {
  return suiteFixture(() => startTestServer(typeof opts === 'function' ? opts() : opts), (app) => app.close());
}

/**
 * The real server (Express, tRPC, Socket.IO) and the real mail/maintenance workers, on a free
 * port, with a fresh database cloned from the migrated template and a Redis prefix of its own.
 */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const shared = opts.shareWith?.deps.config;
  const testDb = shared ? null : await createTestDb();
  const dataDir = shared ? null : await mkdtemp(path.join(tmpdir(), 'creator-test-'));
  const outboxDir = shared ? shared.OUTBOX_DIR : path.join(dataDir!, 'outbox');
  const storageEnv = shared ? sharedStorageEnv(shared) : await storageSettings(opts.storage ?? testStorageDriver());
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: shared ? shared.DATABASE_URL : testDb!.url,
    REDIS_PREFIX: shared ? shared.REDIS_PREFIX : `test-${inject('runId')}-${randomUUID().slice(0, 8)}`,
    PORT: '0',
    SERVE_SPA: 'false',
    OUTBOX_DIR: outboxDir,
    STORAGE_DIR: shared ? shared.STORAGE_DIR : path.join(dataDir!, 'storage'),
    UPLOADS_DIR: shared ? shared.UPLOADS_DIR : path.join(dataDir!, 'uploads-incoming'),
    MARK_CACHE_DIR: shared ? shared.MARK_CACHE_DIR : path.join(dataDir!, 'mark-cache'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...storageEnv,
    ...opts.env,
  });
  const queryLog: string[] = [];
  const deps = createDeps(config, 'server', { onQuery: (sql) => queryLog.push(sql), payments: opts.payments, clock: opts.clock });
  const app = createApp(deps);
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
  config.appUrl = url;
  const workers = shared ? null : await startWorkers(deps, opts.workerQueues);

  const drain = async (queue: QueueName, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await deps.queues[queue].getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > deadline) throw new Error(`${queue} queue did not drain: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  return {
    url,
    deps,
    app,
    client: () => createClient(url),
    async outbox() {
      await drain('mail');
      const files = (await readdir(outboxDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
      return Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(outboxDir, f), 'utf8')) as OutboxMail));
    },
    drain,
    queries: {
      // without the anonymous cache's data-version read (server/http/public-cache.ts): one per turn
      // of the event loop, shared by every anonymous request in it, never one per row or list
      list: () => queryLog.filter((sql) => !sql.includes('public_data_version')),
      withoutSession: () => queryLog.filter((sql) => !sql.includes('from "sessions"') && !sql.includes('public_data_version')),
      reset: () => {
        queryLog.length = 0;
      },
    },
    async close() {
      await workers?.close();
      await app.close();
      if (!shared) await deleteRedisKeys(deps, config.REDIS_PREFIX);
      await deps.close();
      await testDb?.destroy();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The storage driver of test servers that do not choose one. */
export function testStorageDriver(): 'disk' | 's3' {
  return process.env.TEST_STORAGE_DRIVER === 's3' ? 's3' : 'disk';
}

async function storageSettings(driver: 'disk' | 's3'): Promise<Record<string, string>> {
  return driver === 's3' ? newS3Bucket(inject('s3Url')) : { STORAGE_DRIVER: 'disk' };
}

function sharedStorageEnv(c: OwnedDeps['config']): Record<string, string> {
  if (c.STORAGE_DRIVER !== 's3') return { STORAGE_DRIVER: 'disk' };
  return { STORAGE_DRIVER: 's3', S3_ENDPOINT: c.S3_ENDPOINT!, S3_BUCKET: c.S3_BUCKET!, S3_ACCESS_KEY: c.S3_ACCESS_KEY!, S3_SECRET_KEY: c.S3_SECRET_KEY!, S3_REGION: c.S3_REGION };
}

async function deleteRedisKeys(deps: OwnedDeps, prefix: string) {
  // SCAN walks one node: on a cluster (REDIS_CLUSTER_NODES), each master's keys, one DEL each (they are in many slots)
  const cluster = isCluster(deps.redis) ? (deps.redis as unknown as Cluster) : null;
  for (const node of cluster ? cluster.nodes('master') : [deps.redis]) {
    // the queues' keys start with the prefix in braces on a cluster (core/redis.ts, queuePrefix)
    for (const pattern of cluster ? [`${prefix}:*`, `{${prefix}}:*`] : [`${prefix}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        if (keys.length) await (cluster ? Promise.all(keys.map((k) => deps.redis.del(k))) : deps.redis.del(...keys));
        cursor = next;
      } while (cursor !== '0');
    }
  }
}

function createClient(baseUrl: string): TestClient {
  const jar = new Map<string, string>();
  let origin: string | null = baseUrl;
  let last: { status: number; headers: Headers } | null = null;

  const send = async (input: string | URL | Request, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    if (origin) headers.set('origin', origin);
    const response = await fetch(input, { ...init, headers });
    for (const raw of response.headers.getSetCookie()) {
      const [pair, ...attrs] = raw.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0$/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
    last = { status: response.status, headers: response.headers };
    return response;
  };

  return {
    trpc: createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${baseUrl}/trpc`, transformer: superjson, fetch: (input, init) => send(input as string, init as RequestInit) })],
    }),
    cookies: () => jar,
    lastSetCookie: () => last?.headers.getSetCookie() ?? [],
    lastResponse: () => last,
    setOrigin(value) {
      origin = value;
    },
    fetch: (pathname, init) => send(`${baseUrl}${pathname}`, init),
  };
}
