import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Named prepared statements for the hot lists' statements (statement-shape.ts), issue 31 item 5.
 *
 * PostgreSQL spent more of its time planning a feed page than running it (1.3 ms of 1.9 ms of
 * CPU; docs/performance.md). A statement prepared once per connection is parsed once, and after
 * five runs PostgreSQL keeps one generic plan for it when that plan costs no more than the
 * custom ones: 0.6 ms of CPU for the same feed page. A statement is only named here when its
 * shape registers its SQL; every other query is sent unnamed as before.
 *
 * Off (DATABASE_PREPARED_STATEMENTS=false) behind a connection pooler in transaction mode that
 * does not keep prepared statements per client (PgBouncer before 1.21).
 */
const names = new Map<string, string>();

/** From now on, this SQL text runs as a named prepared statement on every connection that uses it. */
export function prepareStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `shape_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
}

/**
 * A pg client that sends registered SQL texts as named statements. A statement whose result
 * columns changed under it (a migration altered a column's type while this copy ran) fails once
 * with 0A000 'cached plan must not change result type' on each connection that prepared it: that
 * query is sent again under a new name, prepared afresh, so the copy keeps answering.
 */
export class PreparingClient extends pg.Client {
  #generation = 0;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const send = super.query.bind(this) as (...args: unknown[]) => unknown;
    // an own property, not an override: pg's overloads of query() cannot be restated one by one
    this.query = ((...args: unknown[]) => {
      const [text, values, callback] = args;
      const base = typeof text === 'string' && Array.isArray(values) && callback === undefined ? names.get(text) : undefined;
      if (base === undefined) return send(...args);
      const run = () => send({ name: this.#generation ? `${base}_${this.#generation}` : base, text, values }) as Promise<pg.QueryResult>;
      return run().catch((error: unknown) => {
        if (!isStalePlan(error)) throw error;
        this.#generation += 1;
        return run();
      });
    }) as pg.Client['query'];
  }
}

const isStalePlan = (error: unknown) =>
  (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message);
