/**
 * `npm start`: one command from a fresh checkout to a running app on http://localhost:3000:
 * checks PostgreSQL and Redis, migrates, then seeds the demo when the database is empty while it
 * builds the web app (unless a build of the same sources is there), then serves API + web +
 * realtime with the worker in the same process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { ensureDatabaseExists, migrateToLatest } from '../core/db/migrate';
import { assertServicesReachable } from '../core/preflight';
import { runOrExit } from '../core/run-or-exit';
import { runServer } from '../server/serve';
import { inProcessWorkers } from './in-process-workers';
import { ensureVapidKeys } from './vapid-env';

process.env.NODE_ENV ??= 'production';
const scriptsDir = path.dirname(fileURLToPath(import.meta.url));

await runOrExit(async () => {
  const started = Date.now();
  if (ensureVapidKeys() === 'generated') console.log('Web push: a new VAPID key pair was written to .env');
  const config = loadConfig();
  await assertServicesReachable(config);

  await ensureDatabaseExists(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, 2);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  // The demo seed (sharp drawing its pictures) and the build (the bundler) each run in a process
  // of their own: run in this one, their modules, caches and freed native memory stayed resident
  // for the server's whole life (1,150 MiB of the server's RSS at rest against 200 MiB without).
  // They need nothing of each other, so they run side by side: the seed waits on ffmpeg and the
  // database much of its time, the bundler is busy on its own. The build's lines wait for its end,
  // so they cannot break into the list of demo accounts.
  const seeding = runStep('the demo seed', [process.execPath, '--import', 'tsx', path.join(scriptsDir, 'seed.ts')], 'inherit');
  // the client bundle and the public pages' server renderer (scripts/build-web.ts)
  const building = config.SERVE_SPA
    ? runStep('the web build', [process.execPath, '--import', 'tsx', path.join(scriptsDir, 'build-web.ts'), config.DIST_DIR, '--if-changed'], 'after')
    : Promise.resolve();
  if (config.SERVE_SPA) console.log('Building the web app beside the seed...');
  const [seeded, built] = await Promise.allSettled([seeding, building]);
  for (const step of [seeded, built]) if (step.status === 'rejected') throw step.reason;
  // The worker runs in-process unless RUN_WORKER=false (docker-compose runs it as its own service).
  await runServer(config, { alongside: process.env.RUN_WORKER === 'false' ? undefined : inProcessWorkers });
  console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s: open ${config.appUrl}`);
});

/** A child process to its end; `after`: its output printed once it ends rather than as it comes. */
function runStep(what: string, [command, ...args]: string[], output: 'inherit' | 'after'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, { stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const held: [NodeJS.WriteStream, Buffer][] = [];
    child.stdout?.on('data', (chunk: Buffer) => held.push([process.stdout, chunk]));
    child.stderr?.on('data', (chunk: Buffer) => held.push([process.stderr, chunk]));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      for (const [stream, chunk] of held) stream.write(chunk);
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}
