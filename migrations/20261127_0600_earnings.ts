import { sql } from 'kysely';
import { withCreatedAt, withId, withTimestamps, type MigrationDb } from './lib/ddl';

/**
 * Issue 26, creators get paid (docs/payments.md, "Earnings and payouts"):
 *  - `ledger_entries`: every succeeded payment row splits into the platform's share and the
 *    creator's, in whole cents, in the payment's own transaction (domain/earnings/split.ts); a
 *    payout takes from the creator's balance and a failed one gives it back. One row per
 *    (payment, account) and per (payout, kind), so a split or a payout is written once.
 *    A creator's row counts as available from `available_at` (a charge: after the hold).
 *  - `payout_accounts`: where a creator is paid (a Stripe Connect Express account, or the built-in
 *    provider's test account), and its state as the provider last said it.
 *  - `payouts`: one row per payout and one transfer, keyed; at most one on its way per creator.
 * Payments before this migration are split here at the defaults (20% fee, 7 days' hold).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('payout_accounts')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('details_needed', 'pending', 'enabled')`))
    .$call(withTimestamps)
    .addUniqueConstraint('payout_accounts_provider_account_key', ['provider', 'provider_account_id'])
    .execute();

  await db.schema
    .createTable('payouts')
    .$call(withId)
    // kept (null) when the creator's account goes: the platform's books still hold the payout
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'paid', 'failed')`))
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('scheduled', 'request', 'deletion')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_account_id', 'text', (c) => c.notNull())
    .addColumn('transfer_ref', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('settled_at', 'timestamptz')
    .$call(withCreatedAt)
    .execute();
  await sql`create unique index payouts_key_idx on payouts (key)`.execute(db);
  // at most one payout on its way per creator: two requests at once make one
  await sql`create unique index payouts_one_pending_idx on payouts (creator_id) where status = 'pending'`.execute(db);
  await sql`create index payouts_creator_idx on payouts (creator_id, created_at desc, id desc)`.execute(db);
  await sql`create index payouts_status_idx on payouts (status, created_at) where status <> 'paid'`.execute(db);

  await db.schema
    .createTable('ledger_entries')
    .$call(withId)
    .addColumn('account', 'text', (c) => c.notNull().check(sql`account in ('platform', 'creator')`))
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('charge', 'reversal', 'payout', 'payout_returned')`))
    .addColumn('payment_id', 'uuid', (c) => c.references('payments.id').onDelete('restrict'))
    .addColumn('payout_id', 'uuid', (c) => c.references('payouts.id').onDelete('restrict'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('available_at', 'timestamptz', (c) => c.notNull())
    .$call(withCreatedAt)
    .addCheckConstraint('ledger_entries_platform_no_creator', sql`account = 'creator' or creator_id is null`)
    .addCheckConstraint('ledger_entries_source', sql`(payment_id is null) <> (payout_id is null)`)
    .addCheckConstraint('ledger_entries_payout_creator', sql`payout_id is null or account = 'creator'`)
    .execute();
  await sql`create unique index ledger_entries_payment_idx on ledger_entries (payment_id, account) where payment_id is not null`.execute(db);
  await sql`create unique index ledger_entries_payout_idx on ledger_entries (payout_id, kind) where payout_id is not null`.execute(db);
  // the Earnings screen: balances (available_at), the chart and statements (created_at)
  await sql`create index ledger_entries_creator_idx on ledger_entries (creator_id, created_at) include (kind, amount_cents, available_at) where account = 'creator'`.execute(db);
  await sql`create index ledger_entries_creator_available_idx on ledger_entries (creator_id, available_at) include (amount_cents) where account = 'creator'`.execute(db);
  await sql`create index ledger_entries_month_idx on ledger_entries (created_at) include (account, kind, amount_cents)`.execute(db);

  // the payments already written, split at the defaults (charges first: reversals follow their split)
  await sql`
    insert into ledger_entries (account, creator_id, kind, payment_id, amount_cents, available_at, created_at)
    select a.account, case when a.account = 'creator' then p.creator_id end, 'charge', p.id, a.cents, a.available_at, p.created_at
    from payments p
    cross join lateral (
      select round(p.amount * 100)::bigint as total,
             case when p.creator_id is null then round(p.amount * 100)::bigint else floor(round(p.amount * 100) * 20 / 100.0 + 0.5)::bigint end as fee
    ) c
    cross join lateral (values
      ('platform', c.fee, p.created_at),
      ('creator', c.total - c.fee, p.created_at + interval '7 days')
    ) as a(account, cents, available_at)
    where p.kind = 'charge' and p.status = 'succeeded' and (a.account = 'platform' or p.creator_id is not null)
  `.execute(db);
  await sql`
    insert into ledger_entries (account, creator_id, kind, payment_id, amount_cents, available_at, created_at)
    select a.account, case when a.account = 'creator' then e.creator_id end, 'reversal', r.id, a.cents, a.available_at, r.created_at
    from payments r
    join payments c on c.id = r.reverses_payment_id
    left join ledger_entries e on e.payment_id = c.id and e.account = 'creator'
    cross join lateral (
      select round(r.amount * 100)::bigint as total,
             coalesce(sign(r.amount) * floor(abs(round(r.amount * 100)) * e.amount_cents / nullif(round(c.amount * 100), 0) + 0.5), 0)::bigint as creator
    ) s
    cross join lateral (values
      ('platform', s.total - s.creator, r.created_at),
      ('creator', s.creator, greatest(r.created_at, e.available_at))
    ) as a(account, cents, available_at)
    where r.kind <> 'charge' and r.status = 'succeeded' and (a.account = 'platform' or e.id is not null)
  `.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('payouts').execute();
  await db.schema.dropTable('payout_accounts').execute();
}
