// `npm run seed`: fills an empty, migrated database with the demo (scripts/seed/demo.ts).
// Running it again is harmless: it sees the data and stops.
import { ConfigError, loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { assertPostgresReachable, PostgresUnreachableError } from '../core/db/migrate';
import { createStorage } from '../core/storage';
import { seedDemo } from './seed/demo';
import { DEFAULT_MEDIA_CACHE_DIR, diskMediaCache } from './seed/media-cache';

async function main(): Promise<void> {
  const config = loadConfig();
  await assertPostgresReachable(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, 2);
  try {
    // DEMO_MEDIA_CACHE_DIR=off makes every file afresh
    const cacheDir = process.env.DEMO_MEDIA_CACHE_DIR ?? DEFAULT_MEDIA_CACHE_DIR;
    const mediaCache = cacheDir === 'off' ? undefined : diskMediaCache(cacheDir);
    const { created } = await seedDemo({ db, storage: createStorage(config), log: (line) => console.log(line), mediaCache });
    if (!created) console.log('The database already has data: demo seed skipped.');
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.lines.join('\n'));
  else if (error instanceof PostgresUnreachableError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
