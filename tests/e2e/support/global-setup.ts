import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildServer } from '../../../scripts/build-server';
import { buildWeb } from '../../../scripts/build-web';
import { seedDemo } from '../../../scripts/seed/demo';
import { loadConfig } from '../../../core/config';
import { createStorage } from '../../../core/storage';
import { generateVapidKeys } from '../../../core/push/web-push';
import { repoRoot } from '../../../core/repo-root';
import { createMigratedDatabase, dropDatabase } from '../../helpers/databases';
import { serverCommand } from '../../helpers/server-command';
import { e2eDirs } from './env';

/**
 * A whole app for the browser tests: a fresh database with the demo seeded, the web app built,
 * and `scripts/serve.ts` (bundled: tests/helpers/server-command.ts) with the workers in a child
 * process on E2E_PORT, with its own Redis prefix
 * and data directory. The returned function tears all of it down.
 */
export default async function globalSetup() {
  const port = process.env.E2E_PORT!;
  const runId = `${port}_${Date.now().toString(36)}`;
  const { dataDir, outboxDir, storageDir } = e2eDirs();
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(outboxDir, { recursive: true });

  const serverUrl = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const dbName = `creator_e2e_${runId}`;
  const database = await createMigratedDatabase(serverUrl, dbName);
  const databaseUrl = database.url;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    APP_URL: `http://localhost:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `e2e-${runId}`,
    STORAGE_DIR: storageDir,
    UPLOADS_DIR: path.join(dataDir, 'uploads-incoming'),
    OUTBOX_DIR: outboxDir,
    RUN_WORKER: 'true',
    // Its own build, so two e2e runs (or a developer's npm run build) never swap files under a running test.
    DIST_DIR: path.join(dataDir, 'dist'),
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'error',
    // The machine runs the browser, the server, its worker and other runs at once: a grainy 720p
    // video (hls-playback.spec) did not get its ladder within 5 minutes at a load average of 20
    // with the caps at 1x (a cap hit leaves the MP4 only). The caps have integration tests of their
    // own (media-limits); their doc (core/config.ts) says 2 on a slow machine.
    MEDIA_TIME_LIMIT_SCALE: '3',
    // Every spec signs in from 127.0.0.1; the limit itself is covered by the integration tests.
    AUTH_RATE_LIMIT: '1000',
    // and every spec's writes count against that one address's budgets (the budgets: integration tests)
    WRITE_BUDGET_SCALE: '100',
    // web push (notifications.spec): its own key pair, and the spec's push service on the loopback
    ...vapidEnv(),
    PUSH_ALLOW_LOCAL_ENDPOINTS: 'true',
  };
  const config = loadConfig(env);
  // Specs that look behind the UI (queues) read these; workers inherit the environment.
  process.env.E2E_REDIS_PREFIX = env.REDIS_PREFIX;
  // A spec may start a second copy of the server on the same database, Redis and files.
  const shared = ['NODE_ENV', 'HOST', 'DATABASE_URL', 'REDIS_PREFIX', 'STORAGE_DIR', 'UPLOADS_DIR', 'OUTBOX_DIR', 'LOG_LEVEL', 'AUTH_RATE_LIMIT', 'WRITE_BUDGET_SCALE', 'DIST_DIR'] as const;
  process.env.E2E_SERVER_ENV = JSON.stringify(Object.fromEntries(shared.map((k) => [k, env[k]])));

  // the demo (its media through the pipeline) and the builds side by side: none needs another
  const [, bundle] = await Promise.all([
    seedDemo({ db: database.db, storage: createStorage(config) }).finally(() => database.db.destroy()),
    buildServer(path.join(repoRoot, 'tests/.artifacts', `server-e2e-${runId}`)),
    buildWeb(env.DIST_DIR, 'error'),
  ]);
  // the copies the specs start use it too (workers inherit the environment)
  process.env.SERVER_BUNDLE_DIR = bundle;

  const { command, args } = serverCommand('scripts/serve.ts');
  const server = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  await waitForReady(`http://127.0.0.1:${port}/readyz`, exited);

  return async () => {
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
    const redis = new Redis(config.REDIS_URL);
    const keys = await redis.keys(`${config.REDIS_PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await dropDatabase(serverUrl, dbName);
    await rm(dataDir, { recursive: true, force: true });
    await rm(bundle, { recursive: true, force: true });
  };
}

function vapidEnv() {
  const pair = generateVapidKeys();
  return { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
}

async function waitForReady(url: string, exited: Promise<number | null>) {
  const deadline = Date.now() + 60_000;
  let stopped = false;
  void exited.then(() => (stopped = true));
  while (Date.now() < deadline) {
    if (stopped) throw new Error('the e2e server exited during start-up (see its output above)');
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the e2e server was not ready at ${url} within 60 s`);
}
