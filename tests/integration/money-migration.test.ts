import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCents } from '../../common/money';
import type { DB } from '../../core/db/kysely';
import { migrateDown, migrateToLatest } from '../../core/db/migrate';
import { DiskStorage } from '../../core/storage/disk';
import { seedDemo } from '../../scripts/seed/demo';
import { createTestDb, type TestDatabase } from '../helpers/test-db';

/**
 * Issue 45: "payments.amount, prices and refund requests move to cents columns by a migration that
 * keeps every existing row's value exactly". On the demo, taken back to just before
 * 20261206_0400_money_in_cents: every money value read in rand, from every numeric(10,2) column
 * the schema has (found in information_schema, so a column the migration missed is found too),
 * with rows at the edges of what numeric(10,2) holds; up: each row's `_cents` is its rand to the
 * cent and no rand column is left; down again: the same rand, the same checks and indexes.
 */
const MIGRATION = '20261206_0400_money_in_cents';
const MIGRATIONS = path.join(import.meta.dirname, '../../migrations');

/** The rand columns the migration converts (every numeric(10,2) column; duration_seconds is plain numeric). */
const MONEY_COLUMNS = [
  'mass_messages.price',
  'messages.price',
  'payments.amount',
  'pending_charges.amount',
  'refund_requests.amount',
  'subscription_tiers.price',
  'subscriptions.next_price',
  'subscriptions.price',
];

/**
 * Rows at the edges, written in rand before the migration: the largest numeric(10,2) (past
 * integer's reach in cents), a cent, odd cents, negative ones, and a row in each table the demo
 * leaves empty (refund requests and pending charges come from paths the demo does not take).
 */
const EDGES = [
  sql`update subscription_tiers set price = 99999999.99 where id = (select id from subscription_tiers where creator_id is not null order by id limit 1)`,
  sql`update subscriptions set price = 0.01, next_price = 12345678.91 where id = (select id from subscriptions order by id limit 1)`,
  sql`update payments set amount = 99999999.99 where id = (select id from payments where kind = 'charge' order by id limit 1)`,
  sql`update payments set amount = -99999999.99 where id = (select id from payments where kind = 'refund' order by id limit 1)`,
  sql`update messages set price = 0.05 where id = (select id from messages where price is not null order by id limit 1)`,
  sql`update mass_messages set price = 4321.09 where id = (select id from mass_messages where price is not null order by id limit 1)`,
  sql`insert into refund_requests (payment_id, amount, reversal_key)
    select id, 0.01, 'money-migration-edge' from payments where kind = 'charge' order by id limit 1`,
  sql`insert into pending_charges (user_id, idempotency_key, purpose, creator_id, amount, description, provider)
    select p.user_id, 'money-migration-edge', 'tip', p.creator_id, 99999999.99, 'Tip', 'builtin'
    from payments p where p.user_id is not null and p.creator_id is not null order by p.id limit 1`,
];

const split = (column: string) => column.split('.') as [string, string];

/** Every numeric column with two decimals in the schema: the money still kept in rand. */
async function randColumns(db: DB): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name || '.' || column_name as name from information_schema.columns
    where table_schema = 'public' and data_type = 'numeric' and numeric_scale = 2 order by 1`.execute(db);
  return rows.map((r) => r.name);
}

/** Each row's value of the column as text, by id (null stays null). */
async function valuesOf(db: DB, table: string, column: string): Promise<Map<string, string | null>> {
  const { rows } = await sql<{ id: string; value: string | null }>`select id, ${sql.ref(column)}::text as value from ${sql.table(table)}`.execute(db);
  return new Map(rows.map((r) => [r.id, r.value]));
}

async function readAll(db: DB, suffix: '' | '_cents'): Promise<Map<string, Map<string, string | null>>> {
  const all = new Map<string, Map<string, string | null>>();
  for (const column of MONEY_COLUMNS) {
    const [table, name] = split(column);
    all.set(column, await valuesOf(db, table, `${name}${suffix}`));
  }
  return all;
}

/** The money columns' checks and the indexes of their tables, as PostgreSQL writes them back. */
async function definitions(db: DB): Promise<string[]> {
  const tables = [...new Set(MONEY_COLUMNS.map((c) => split(c)[0]))];
  const { rows } = await sql<{ def: string }>`
    select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) as def from pg_constraint
    where contype = 'c' and conrelid::regclass::text in (${sql.join(tables)})
    union all
    select indexdef from pg_indexes where schemaname = 'public' and tablename in (${sql.join(tables)})
    order by 1`.execute(db);
  return rows.map((r) => r.def);
}

let t: TestDatabase;
let storageDir: string;

beforeAll(async () => {
  t = await createTestDb();
  storageDir = await mkdtemp(path.join(tmpdir(), 'money-migration-'));
  await seedDemo({ db: t.db, storage: new DiskStorage(storageDir) });
  // every media file of the demo goes through the pipeline: minutes on a loaded machine
}, 300_000);

afterAll(async () => {
  await t?.destroy();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

describe(MIGRATION, () => {
  it('keeps every money value of the demo to the cent, up into bigint cents and down into rand again', async () => {
    const db = t.db;
    const fromMine = (await readdir(MIGRATIONS)).filter((f) => /^\d/.test(f) && f >= MIGRATION).length;
    await migrateDown(db, fromMine);
    expect(await randColumns(db), 'the rand columns before the migration').toEqual(MONEY_COLUMNS);
    for (const edge of EDGES) await edge.execute(db);
    const before = await readAll(db, '');
    const schemaBefore = await definitions(db);
    for (const [column, values] of before) {
      expect([...values.values()].filter((v) => v !== null).length, `${column} has money to carry`).toBeGreaterThan(0);
    }

    await migrateToLatest(db);
    expect(await randColumns(db), 'no money left in rand').toEqual([]);
    const after = await readAll(db, '_cents');
    for (const [column, values] of before) {
      const cents = after.get(column)!;
      expect([...cents.keys()].sort(), `${column}: the same rows`).toEqual([...values.keys()].sort());
      for (const [id, rand] of values) {
        expect(cents.get(id), `${column} of ${id}: ${rand}`).toBe(rand === null ? null : String(toCents(rand)));
      }
    }

    await migrateDown(db, fromMine);
    expect(await readAll(db, ''), 'down: the same rand, row by row').toEqual(before);
    expect(await definitions(db), 'down: the same checks and indexes').toEqual(schemaBefore);
    await migrateToLatest(db);
  }, 120_000);
});
