import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Money is integer cents end to end (issue 45; docs/payments.md, "Money in cents"): the last rand
 * columns, numeric(10,2), become `<name>_cents` bigint, like the ledger's journal_lines. bigint,
 * not integer: numeric(10,2) holds up to 9,999,999,999 cents, past integer's 2,147,483,647, and
 * every row must keep its value exactly. `x * 100` of a numeric(10,2) is a whole number, so the
 * cast loses nothing; down divides by 100 in numeric, which is exact at two decimals.
 *
 * Renamed and retyped in place rather than added and dropped: the columns keep their places and
 * the index on a tier's price follows. The CHECKs compare with zero, so each reads the same in
 * cents; they are dropped and made again only so that they compare bigint with bigint.
 */
interface MoneyColumn {
  table: string;
  column: string;
  /** the CHECKs on it, by name, written for a column name */
  checks: Record<string, (column: string) => string>;
}

const MONEY_COLUMNS: readonly MoneyColumn[] = [
  {
    table: 'subscription_tiers',
    column: 'price',
    checks: {
      subscription_tiers_price_check: (c) => `${c} >= 0`,
      subscription_tiers_creator_price_check: (c) => `creator_id is null or ${c} > 0`,
    },
  },
  { table: 'subscriptions', column: 'price', checks: { subscriptions_price_check: (c) => `${c} >= 0` } },
  { table: 'subscriptions', column: 'next_price', checks: { subscriptions_next_price_check: (c) => `${c} >= 0` } },
  {
    table: 'payments',
    column: 'amount',
    checks: { payments_amount_check: (c) => `(kind in ('refund', 'dispute') and ${c} < 0) or (kind in ('charge', 'dispute_won') and ${c} >= 0)` },
  },
  { table: 'refund_requests', column: 'amount', checks: { refund_requests_amount_check: (c) => `${c} > 0` } },
  { table: 'mass_messages', column: 'price', checks: { mass_messages_price_check: (c) => `${c} is null or (${c} > 0 and attachment_id is not null)` } },
  { table: 'messages', column: 'price', checks: { messages_price_check: (c) => `${c} is null or (${c} > 0 and attachment_id is not null)` } },
  { table: 'pending_charges', column: 'amount', checks: { pending_charges_amount_check: (c) => `${c} > 0` } },
];

async function convert(db: MigrationDb, m: MoneyColumn, to: 'cents' | 'rand'): Promise<void> {
  const [from, into] = to === 'cents' ? [m.column, `${m.column}_cents`] : [`${m.column}_cents`, m.column];
  const [type, using] = to === 'cents' ? ['bigint', `round(${into} * 100)::bigint`] : ['numeric(10, 2)', `(${into}::numeric / 100)::numeric(10, 2)`];
  const table = sql.table(m.table);
  for (const name of Object.keys(m.checks)) await sql`alter table ${table} drop constraint ${sql.ref(name)}`.execute(db);
  await sql`alter table ${table} rename column ${sql.ref(from)} to ${sql.ref(into)}`.execute(db);
  await sql`alter table ${table} alter column ${sql.ref(into)} type ${sql.raw(type)} using ${sql.raw(using)}`.execute(db);
  for (const [name, check] of Object.entries(m.checks)) {
    await sql`alter table ${table} add constraint ${sql.ref(name)} check (${sql.raw(check(into))})`.execute(db);
  }
}

export async function up(db: MigrationDb): Promise<void> {
  for (const m of MONEY_COLUMNS) await convert(db, m, 'cents');
}

export async function down(db: MigrationDb): Promise<void> {
  for (const m of MONEY_COLUMNS) await convert(db, m, 'rand');
}
