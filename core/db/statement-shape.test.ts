import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDb } from '../../tests/helpers/test-db';
import { createDb } from './kysely';
import { statementShape } from './statement-shape';

/**
 * A statement compiled once per shape answers each call with that call's values: the second
 * call with other values must not get the first call's rows (the compiled SQL is reused, its
 * parameters are not), and a null that changes the SQL is a shape of its own.
 */
describe('statementShape', () => {
  const t = useTestDb();
  const built: string[] = [];
  const usernames = statementShape((db, { prefix, after, limit }: { prefix: string; after: { name: string } | null; limit: number }, shape) => {
    built.push(`${shape}:${after === null ? 'first' : 'after'}`);
    return db
      .selectFrom('profiles')
      .select('username')
      .where('username', 'like', sql<string>`${prefix} || '%'`)
      .$if(after !== null, (q) => q.where('username', '>', after!.name))
      .$if(shape === 'desc', (q) => q.orderBy('username', 'desc'))
      .$if(shape !== 'desc', (q) => q.orderBy('username', 'asc'))
      .limit(limit);
  });

  it('runs each call with its own values, building once per shape', async () => {
    await sql`
      insert into users (id, email, password_hash, created_at)
      select md5('shape' || i)::uuid, 'shape' || i || '@test.test', 'x', now() from generate_series(1, 6) i`.execute(t.db);
    await sql`
      insert into profiles (id, username, display_name, date_of_birth)
      select md5('shape' || i)::uuid, (case when i <= 3 then 'alpha' else 'beta' end) || i, 'S', '1990-01-01' from generate_series(1, 6) i`.execute(t.db);
    const names = async (...args: Parameters<typeof usernames>) => (await usernames(...args)).map((r) => r.username);

    expect(await names(t.db, { prefix: 'alpha', after: null, limit: 2 })).toEqual(['alpha1', 'alpha2']);
    expect(await names(t.db, { prefix: 'beta', after: null, limit: 3 })).toEqual(['beta4', 'beta5', 'beta6']);
    expect(await names(t.db, { prefix: 'alpha', after: { name: 'alpha1' }, limit: 5 })).toEqual(['alpha2', 'alpha3']);
    expect(await names(t.db, { prefix: 'beta', after: { name: 'beta5' }, limit: 5 })).toEqual(['beta6']);
    expect(await names(t.db, { prefix: 'beta', after: null, limit: 2 }, 'desc')).toEqual(['beta6', 'beta5']);
    expect(built).toEqual([':first', ':after', 'desc:first']);
  });

  it('takes a list as one parameter per item, its length part of the shape', async () => {
    const named = statementShape((db, { names }: { names: readonly string[] }) => db.selectFrom('profiles').select('username').where('username', 'in', names).orderBy('username'));
    const names = async (list: string[]) => (await named(t.db, { names: list })).map((r) => r.username);
    expect(await names(['alpha1', 'beta5'])).toEqual(['alpha1', 'beta5']);
    expect(await names(['alpha2', 'beta6'])).toEqual(['alpha2', 'beta6']);
    expect(await names(['alpha3', 'beta4', 'alpha1'])).toEqual(['alpha1', 'alpha3', 'beta4']);
  });

  it('writes its constants and literals into the SQL and runs it as one prepared statement per connection', async () => {
    const sent: string[] = [];
    // one connection, so the prepared statements listed are this pool's
    const db = createDb(t.url, 1, { onQuery: (text) => void sent.push(text) });
    try {
      const page = statementShape(
        (q, { prefix, limit }: { prefix: string; limit: number }) =>
          q.selectFrom('profiles').select('username').where('display_name', '=', 'S').where('username', 'like', sql<string>`${prefix} || '%'`).orderBy('username').limit(limit),
        { literals: ['limit'] },
      );
      const names = async (prefix: string, limit: number) => (await page(db, { prefix, limit })).map((r) => r.username);
      expect(await names('alpha', 2)).toEqual(['alpha1', 'alpha2']);
      expect(await names('beta', 2)).toEqual(['beta4', 'beta5']);
      expect(await names('beta', 1)).toEqual(['beta4']);
      // the constant and the limit are in the text; the prefix, a user's value, stays a parameter
      expect(sent[0]).toMatch(/"display_name" = 'S' and "username" like \$1 \|\| '%' order by "username" limit 2$/);
      expect(sent[2]).toMatch(/limit 1$/);
      const { rows } = await sql<{ statement: string; runs: number }>`
        select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements order by statement`.execute(db);
      expect(rows).toEqual([
        { statement: sent[2], runs: 1 },
        { statement: sent[0], runs: 2 },
      ]);
      // a value that could break out of a literal is refused, never written into the SQL
      await expect(page(db, { prefix: 'alpha', limit: 1.5 })).rejects.toThrow(/not a literal/);
    } finally {
      await db.destroy();
    }
  });

  it('prepares a statement again when a migration changed its result under a running copy', async () => {
    await sql`create table shape_probe (n int not null)`.execute(t.db);
    await sql`insert into shape_probe values (1), (2)`.execute(t.db);
    const db = createDb(t.url, 1);
    try {
      const probe = statementShape((q, { min }: { min: number }) => q.selectFrom('shape_probe' as never).select(sql<string>`n`.as('n')).where(sql`n`, '>=', min));
      expect((await probe(db, { min: 2 })).map((r) => Number(r.n))).toEqual([2]);
      // another connection (the migration) changes the type of the column the statement returns
      await sql`alter table shape_probe alter column n type bigint`.execute(t.db);
      expect((await probe(db, { min: 1 })).map((r) => r.n)).toEqual(['1', '2']);
    } finally {
      await db.destroy();
    }
  });
});
