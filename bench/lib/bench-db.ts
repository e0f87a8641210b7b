import { createMigratedDatabase } from '../../tests/helpers/databases';

/** A throwaway, migrated database for one bench run; `destroy()` drops it. */
export function createBenchDb(serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432') {
  return createMigratedDatabase(serverUrl, `creator_bench_${Date.now().toString(36)}`);
}
