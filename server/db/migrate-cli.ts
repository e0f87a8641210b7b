// `npm run migrate`               create the database if missing, then apply every pending migration
// `npm run migrate -- down`       undo the last migration
// `npm run migrate -- down <n>`   undo n migrations; `down all` undoes every one
import { ConfigError, loadConfig } from '../config';
import { createDb } from './kysely';
import {
  assertPostgresReachable,
  databaseNameOf,
  ensureDatabaseExists,
  migrateDown,
  migrateToLatest,
  PostgresUnreachableError,
} from './migrate';

function parseArgs(args: string[]): { direction: 'up' } | { direction: 'down'; steps: number | 'all' } {
  const [command, count] = args;
  if (command === undefined || command === 'up' || command === 'latest') return { direction: 'up' };
  if (command === 'down') {
    if (count === undefined) return { direction: 'down', steps: 1 };
    if (count === 'all') return { direction: 'down', steps: 'all' };
    if (/^[1-9]\d*$/.test(count)) return { direction: 'down', steps: Number(count) };
  }
  throw new UsageError('Usage: npm run migrate [-- down [<n>|all]]');
}

class UsageError extends Error {}

async function main(): Promise<void> {
  const action = parseArgs(process.argv.slice(2));
  const url = loadConfig().DATABASE_URL;
  await assertPostgresReachable(url);

  if (action.direction === 'up' && (await ensureDatabaseExists(url))) {
    console.log(`Created database ${databaseNameOf(url)}`);
  }
  const db = createDb(url, 1);
  try {
    let changed = false;
    const log = (line: string) => {
      changed = true;
      console.log(line);
    };
    if (action.direction === 'up') await migrateToLatest(db, log);
    else await migrateDown(db, action.steps, log);
    if (!changed) console.log(action.direction === 'up' ? 'Database is up to date' : 'Nothing to undo');
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.lines.join('\n'));
  else if (error instanceof PostgresUnreachableError || error instanceof UsageError) console.error(error.message);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
