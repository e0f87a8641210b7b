import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SERVER_TEXTS } from '../../common/texts';
import { makePost, makeSessionCookie, makeUser, FACTORY_PASSWORD } from '../helpers/factories';
import { freePort, killGroup, processClient, startProcess, trpcMutation, waitUntilReady, type AppProcess } from '../helpers/processes';
import { createTestDb, type TestDatabase } from '../helpers/test-db';

// PostgreSQL going away under a running server (with its workers in the same process, as `npm
// start` runs them): a restart terminates every session (57P01), a stopped database refuses new
// ones. The process lives through both, answers 503 'try again' meanwhile, and serves again by
// itself. The app's database is made unreachable on its own (the test cluster is shared).
let database: TestDatabase;
let admin: pg.Client;
let server: AppProcess;
let url: string;
let email: string;
let reader: ReturnType<typeof processClient>;

beforeAll(async () => {
  database = await createTestDb();
  const creator = await makeUser(database.db, { isCreator: true });
  email = (await database.db.selectFrom('users').select('email').where('id', '=', creator.id).executeTakeFirstOrThrow()).email;
  for (let i = 0; i < 5; i++) await makePost(database.db, null, { creatorId: creator.id });
  const { token } = await makeSessionCookie(database.db, creator.id);
  // the test's own pool must not be in the way of what is measured: closed now, admin works on 'postgres'
  admin = new pg.Client({ connectionString: inject('databaseServerUrl') });
  admin.on('error', () => {});
  await admin.connect();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = startProcess('scripts/serve.ts', {
    DATABASE_URL: database.url,
    PORT: String(port),
    APP_URL: url,
    RUN_WORKER: 'true',
    REDIS_PREFIX: `reliability-pg-${port}`,
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
  });
  await waitUntilReady(url);
  reader = processClient(url, token);
}, 60_000);

afterAll(async () => {
  await admin?.query('alter database ' + pg.escapeIdentifier(database.name) + ' allow_connections true').catch(() => {});
  if (server?.alive()) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  killGroup(server?.child.pid);
  await admin?.end();
  await database?.destroy();
});

const feed = async () => {
  const started = Date.now();
  const res = await reader.fetch(`/trpc/posts.feed?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { signal: AbortSignal.timeout(10_000) });
  const body = (await res.json().catch(() => null)) as { error?: { json?: { message?: string } } } | null;
  return { status: res.status, ms: Date.now() - started, message: body?.error?.json?.message ?? null };
};

const terminateAppConnections = async () =>
  (
    await admin.query<{ killed: boolean }>('select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      database.name,
    ])
  ).rows.filter((r) => r.killed).length;

describe('a PostgreSQL restart (every session terminated) during reads', () => {
  it('kills nothing: reads in flight fail with 503 or succeed, and the next ones are served without a restart', async () => {
    expect((await feed()).status).toBe(200);
    const results: Awaited<ReturnType<typeof feed>>[] = [];
    let reading = true;
    const readers = Array.from({ length: 8 }, async () => {
      while (reading) results.push(await feed());
    });
    let killed = 0;
    for (let i = 0; i < 5; i++) {
      await sleep(150);
      killed += await terminateAppConnections();
    }
    await sleep(300);
    reading = false;
    await Promise.all(readers);

    // the blip happened to the app: its pool's sessions were there to be terminated
    expect(killed).toBeGreaterThan(0);
    expect(server.alive()).toBe(true);
    // never a 500 nor a hang: served, or 503 with words to retry on
    for (const r of results) {
      expect([200, 503]).toContain(r.status);
      if (r.status === 503) expect(r.message).toBe(SERVER_TEXTS.unavailable);
      expect(r.ms).toBeLessThan(3_000);
    }
    // the sessions of idle pool clients died too: served again at once, by the same process
    const after = await Promise.all(Array.from({ length: 10 }, feed));
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect(server.alive()).toBe(true);
  });
});

describe('PostgreSQL unreachable for a while', () => {
  it('keeps /healthz up, names postgres on /readyz, answers 503 fast, and recovers by itself', async () => {
    await admin.query(`alter database ${pg.escapeIdentifier(database.name)} allow_connections false`);
    await terminateAppConnections();
    try {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', postgres: 'unavailable', redis: 'ok', down: ['postgres'] });

      const read = await feed();
      expect(read).toMatchObject({ status: 503, message: SERVER_TEXTS.unavailable });
      expect(read.ms).toBeLessThan(2_000);
      const signIn = await trpcMutation(processClient(url, null), 'auth.signIn', { email, password: FACTORY_PASSWORD });
      expect(signIn.status).toBe(503);
      expect(signIn.body).toMatchObject({ error: { json: { message: SERVER_TEXTS.unavailable, data: { code: 'SERVICE_UNAVAILABLE', httpStatus: 503 } } } });
      expect(signIn.ms).toBeLessThan(2_000);
      await sleep(500);
      expect(server.alive()).toBe(true);
    } finally {
      await admin.query(`alter database ${pg.escapeIdentifier(database.name)} allow_connections true`);
    }
    expect((await feed()).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const signIn = await trpcMutation(processClient(url, null), 'auth.signIn', { email, password: FACTORY_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(server.alive()).toBe(true);
  });
});
