import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// date columns stay 'YYYY-MM-DD' strings: a birth date is a calendar day, not an instant.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type DB = Kysely<Database>;

export function createDb(connectionString: string, max = 10): DB {
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max }) }),
  });
}
