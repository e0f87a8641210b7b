import type { CompiledQuery } from 'kysely';
import pg from 'pg';

/**
 * The plan PostgreSQL keeps for a prepared statement once it stops planning each run (the generic
 * plan, made without the parameters' values), as the app's named statements get it
 * (core/db/prepared-statements.ts). EXPLAIN of the statement with its values would show the
 * custom plan instead, which may walk an index the generic one cannot.
 */
export async function genericPlan(url: string, query: CompiledQuery): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const values = query.parameters as unknown[];
    await client.query({ name: 'plan_probe', text: query.sql, values });
    await client.query('set plan_cache_mode = force_generic_plan');
    const args = values.map((v) => (v === null ? 'null' : typeof v === 'number' ? String(v) : client.escapeLiteral(String(v))));
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain execute plan_probe${args.length ? `(${args.join(', ')})` : ''}`);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}
