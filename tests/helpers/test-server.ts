import { createTRPCClient, httpLink } from '@trpc/client';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import superjson from 'superjson';
import { inject } from 'vitest';
import { createApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDeps, type OwnedDeps } from '../../server/create-deps';
import type { AppRouter } from '../../server/trpc/router';
import { startWorkers } from '../../worker/workers';
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
  client(): TestClient;
  /** waits for queued mail jobs to be handled, then returns every mail written, oldest first */
  outbox(): Promise<OutboxMail[]>;
  close(): Promise<void>;
}

/**
 * The real server (Express, tRPC, Socket.IO) and the real mail/maintenance workers, on a free
 * port, with a fresh database cloned from the migrated template and a Redis prefix of its own.
 */
export async function startTestServer(): Promise<TestServer> {
  const testDb = await createTestDb();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'creator-test-'));
  const outboxDir = path.join(dataDir, 'outbox');
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: testDb.url,
    REDIS_PREFIX: `test-${inject('runId')}-${randomUUID().slice(0, 8)}`,
    PORT: '0',
    SERVE_SPA: 'false',
    OUTBOX_DIR: outboxDir,
    STORAGE_DIR: path.join(dataDir, 'storage'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  const deps = createDeps(config);
  const app = createApp(deps);
  await new Promise<void>((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}`;
  config.appUrl = url;
  const workers = await startWorkers(deps);

  return {
    url,
    deps,
    client: () => createClient(url),
    async outbox() {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const counts = await deps.queues.mail.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        if (Object.values(counts).every((n) => n === 0)) break;
        if (Date.now() > deadline) throw new Error(`mail queue did not drain: ${JSON.stringify(counts)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const files = (await readdir(outboxDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
      return Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(outboxDir, f), 'utf8')) as OutboxMail));
    },
    async close() {
      await workers.close();
      await app.close();
      await deleteRedisKeys(deps, config.REDIS_PREFIX);
      await deps.close();
      await testDb.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function deleteRedisKeys(deps: OwnedDeps, prefix: string) {
  let cursor = '0';
  do {
    const [next, keys] = await deps.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length) await deps.redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
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
