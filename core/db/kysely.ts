import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PreparingClient } from './prepared-statements';
import type { Database } from './schema';

// date columns stay 'YYYY-MM-DD' strings: a birth date is a calendar day, not an instant.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type DB = Kysely<Database>;

export interface DbOptions {
  /** sees the SQL of every query run (tests use it to count queries per request) */
  onQuery?: (sql: string) => void;
  /**
   * Told of a connection that broke (a PostgreSQL restart terminates every session with 57P01);
   * the pool drops it and the next query opens a new one. Without a listener the error would
   * be thrown from an event emitter and end the process.
   */
  onConnectionError?: (error: Error) => void;
  /** a new connection, or a free one from a full pool, not had in this long fails the query */
  connectTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer; the client gives up a little after it too */
  statementTimeoutMs?: number;
  /** the hot lists' statements as named prepared statements (prepared-statements.ts); on by default */
  preparedStatements?: boolean;
}

export function createDb(connectionString: string, max = 10, opts: DbOptions | ((sql: string) => void) = {}): DB {
  const { onQuery, onConnectionError = () => {}, connectTimeoutMs, statementTimeoutMs, preparedStatements = true } = typeof opts === 'function' ? { onQuery: opts } : opts;
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(preparedStatements && { Client: PreparingClient }),
    ...(connectTimeoutMs !== undefined && { connectionTimeoutMillis: connectTimeoutMs }),
    ...(statementTimeoutMs !== undefined && {
      statement_timeout: statementTimeoutMs,
      // a server that takes the query but never answers (stopped, network cut) is not waited for forever
      query_timeout: statementTimeoutMs + 2_000,
    }),
  });
  // Every client reports its broken connection here, idle or checked out (inside a request or a
  // transaction: the running query is rejected with the error, and the pool drops the client on
  // release). The pool re-emits an idle client's error: already told, but it needs a listener.
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError(error));
  });
  pool.on('error', () => {});
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery && {
      log(event) {
        onQuery(event.query.sql);
      },
    }),
  });
}
