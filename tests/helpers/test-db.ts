import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { cloneDatabase, type TestDatabase } from './databases';
import { suiteFixture } from './suite-fixture';

export type { TestDatabase } from './databases';

/** A fresh, migrated database for one test file: `const t = await createTestDb()` ... `await t.destroy()`. */
export async function createTestDb(): Promise<TestDatabase> {
  const name = `creator_test_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  return cloneDatabase(inject('databaseServerUrl'), inject('templateDb'), name);
}

/** The test file's own database, made before its tests and dropped after them. */
export function useTestDb(): TestDatabase {
  return suiteFixture(createTestDb, (t) => t.destroy());
}
