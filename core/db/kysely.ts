import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

// date columns stay 'YYYY-MM-DD' strings: a birth date is a calendar day, not an instant.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type DB = Kysely<Database>;

/** `onQuery` sees the SQL of every query run (tests use it to count queries per request). */
export function createDb(connectionString: string, max = 10, onQuery?: (sql: string) => void): DB {
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max }) }),
    ...(onQuery && {
      log(event) {
        onQuery(event.query.sql);
      },
    }),
  });
}
