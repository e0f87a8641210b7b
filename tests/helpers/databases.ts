/** Test databases without vitest: used by the vitest helpers, the Playwright setup and benches. */
import { setTimeout as sleep } from 'node:timers/promises';
import { createDb, type DB } from '../../core/db/kysely';
import { migrateToLatest, quoteDatabaseName, withDatabase, withMaintenanceClient } from '../../core/db/migrate';

export interface TestDatabase {
  db: DB;
  url: string;
  name: string;
  /** closes the pool and drops the database */
  destroy(): Promise<void>;
}

function open(serverUrl: string, name: string): TestDatabase {
  const url = withDatabase(serverUrl, name);
  const db = createDb(url, 5);
  let destroyed = false;
  return {
    db,
    url,
    name,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await db.destroy();
      await dropDatabase(serverUrl, name);
    },
  };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withMaintenanceClient(serverUrl, async (c) => {
    // A closed pool's goodbyes may still be in flight; killing those backends would surface as
    // uncaught 57P01 errors in the test process, so give them a moment to leave on their own.
    for (let i = 0; i < 100; i++) {
      const { rows } = await c.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (!rows[0]?.n) break;
      await sleep(20);
    }
    // FORCE: a test that forgot to close a connection must not keep its database alive
    await c.query(`drop database if exists ${quoteDatabaseName(name)} with (force)`);
  });
}

/** Creates `name` (failing if it exists) and migrates it to latest; usable outside vitest (Playwright). */
export async function createMigratedDatabase(serverUrl: string, name: string): Promise<TestDatabase> {
  await withMaintenanceClient(serverUrl, (c) => c.query(`create database ${quoteDatabaseName(name)}`));
  const test = open(serverUrl, name);
  try {
    await migrateToLatest(test.db);
  } catch (error) {
    await test.destroy();
    throw error;
  }
  return test;
}

/** Copies an already-migrated template, which is far quicker than migrating again. */
export async function cloneDatabase(serverUrl: string, template: string, name: string): Promise<TestDatabase> {
  const sql = `create database ${quoteDatabaseName(name)} template ${quoteDatabaseName(template)}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await withMaintenanceClient(serverUrl, (c) => c.query(sql));
      return open(serverUrl, name);
    } catch (error) {
      // 55006: another clone is reading the template right now; copies cannot overlap
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await sleep(50 + Math.random() * 100);
    }
  }
}

