/**
 * `npm start`: one command from a fresh checkout to a running app on http://localhost:3000:
 * checks PostgreSQL and Redis, migrates, seeds the demo when the database is empty, builds the
 * web app, then serves API + web + realtime with the worker in the same process.
 */
import { build } from 'vite';
import { loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { ensureDatabaseExists, migrateToLatest } from '../core/db/migrate';
import { assertServicesReachable } from '../core/preflight';
import { runOrExit } from '../core/run-or-exit';
import { createStorage } from '../core/storage';
import { runServer } from '../server/serve';
import { inProcessWorkers } from './in-process-workers';
import { seedDemo } from './seed/demo';

process.env.NODE_ENV ??= 'production';

await runOrExit(async () => {
  const started = Date.now();
  const config = loadConfig();
  await assertServicesReachable(config);

  await ensureDatabaseExists(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, 2);
  try {
    await migrateToLatest(db);
    const { created } = await seedDemo({ db, storage: createStorage(config), log: (line) => console.log(line) });
    if (!created) console.log('Database already has data: demo seed skipped.');
  } finally {
    await db.destroy();
  }

  if (config.SERVE_SPA) {
    console.log('Building the web app...');
    await build({ logLevel: 'warn', build: { outDir: config.DIST_DIR } });
  }
  // The worker runs in-process unless RUN_WORKER=false (docker-compose runs it as its own service).
  await runServer(config, { alongside: process.env.RUN_WORKER === 'false' ? undefined : inProcessWorkers });
  console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s: open ${config.appUrl}`);
});
