// `npm run migrate`               create the database if missing, then apply every pending migration
// `npm run migrate -- down`       undo the last migration
// `npm run migrate -- down <n>`   undo n migrations; `down all` undoes every one
import { loadConfig } from '../config';
import { runOrExit } from '../run-or-exit';
import { createDb } from './kysely';
import {
  assertPostgresReachable,
  databaseNameOf,
  ensureDatabaseExists,
  migrateDown,
  migrateToLatest,
} from './migrate';

function parseArgs(args: string[]): { direction: 'up' } | { direction: 'down'; steps: number | 'all' } {
  const [command, count] = args;
  if (command === undefined || command === 'up' || command === 'latest') return { direction: 'up' };
  if (command === 'down') {
    if (count === undefined) return { direction: 'down', steps: 1 };
    if (count === 'all') return { direction: 'down', steps: 'all' };
    if (/^[1-9]\d*$/.test(count)) return { direction: 'down', steps: Number(count) };
  }
  console.error('Usage: npm run migrate [-- down [<n>|all]]');
  process.exit(2);
}

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

await runOrExit(main);
