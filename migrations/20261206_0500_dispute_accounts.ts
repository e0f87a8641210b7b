import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Open disputes on the books (issue 45; docs/payments.md, "The ledger"). Until now a dispute
 * opened took the money out of the provider's account and a dispute lost posted nothing, so the
 * ledger could not say how much money was held in open disputes. Two platform accounts:
 *  - `disputes_open` (debit-normal): money a provider withheld for disputes not yet decided, a
 *    claim that comes back if the dispute is won;
 *  - `dispute_reserve` (credit-normal): what is reserved against that claim (the creator's share
 *    and the platform's revenue already taken back when the dispute opened).
 * Opened: disputes_open +D, dispute_reserve −D beside the old lines; won: the reverse; lost: the
 * reverse too ('dispute_lost', once per dispute), nothing else moves. The two always sum to zero.
 *
 * Disputes recorded before this migration: those of each charge not matched by a dispute won are
 * carried as open (one journal per charge). A dispute lost before now cannot be told from an open
 * one (nothing was recorded for it), so it is carried open too; a 'lost' that Stripe delivers
 * later closes it.
 */
const KINDS = ['provider_cash', 'platform_revenue', 'losses', 'refunds_owed', 'payouts_in_transit', 'creator_pending', 'creator_available'];
const JOURNALS = [
  'charge', 'hold_released', 'refund_decided', 'refund_settled', 'refund_not_made', 'refund',
  'dispute_opened', 'dispute_won', 'payout_requested', 'payout_paid', 'payout_failed', 'loss_written_off',
];
const list = (xs: readonly string[]) => sql.join(xs.map((x) => sql.lit(x)));

export async function up(db: MigrationDb): Promise<void> {
  // migrations run in one transaction: the journals an earlier one posted are checked now, so these tables may be altered
  await sql`set constraints all immediate`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (${list([...KINDS, 'disputes_open', 'dispute_reserve'])}))`.execute(db);
  await sql`alter table journal_entries drop constraint journal_entries_kind_check`.execute(db);
  await sql`alter table journal_entries add constraint journal_entries_kind_check check (kind in (${list([...JOURNALS, 'dispute_lost'])}))`.execute(db);
  await sql`set constraints all deferred`.execute(db);
  await sql`insert into ledger_accounts (code, kind) values ('disputes_open', 'disputes_open'), ('dispute_reserve', 'dispute_reserve') on conflict (code) do nothing`.execute(db);

  await sql`
    create temporary table held on commit drop as
    select c.id as charge_id, -sum(r.amount_cents) as cents, max(r.created_at) as at
    from payments c join payments r on r.reverses_payment_id = c.id and r.kind in ('dispute', 'dispute_won') and r.status = 'succeeded'
    where c.kind = 'charge'
    group by c.id
    having -sum(r.amount_cents) > 0`.execute(db);
  await sql`
    insert into journal_entries (kind, key, payment_id, occurred_at)
    select 'dispute_opened', 'dispute-carried-' || h.charge_id, h.charge_id, h.at from held h`.execute(db);
  await sql`
    insert into journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
    select j.id, a.id, a.currency, j.kind, case a.kind when 'disputes_open' then h.cents else -h.cents end, null, j.occurred_at
    from held h join journal_entries j on j.key = 'dispute-carried-' || h.charge_id
    cross join ledger_accounts a where a.code in ('disputes_open', 'dispute_reserve')`.execute(db);
  await sql`drop table held`.execute(db);
}

/**
 * Back to no dispute accounts. The ledger is append-only, so its triggers are set aside for the
 * moment it takes to remove these accounts' lines (each journal of them nets to zero on its own:
 * every other journal still balances) and the journals left with no line.
 */
export async function down(db: MigrationDb): Promise<void> {
  await sql`set constraints all immediate`.execute(db);
  await sql`alter table journal_lines disable trigger journal_lines_append_only`.execute(db);
  await sql`alter table journal_entries disable trigger journal_entries_append_only`.execute(db);
  await sql`delete from journal_lines where account_id in (select id from ledger_accounts where kind in ('disputes_open', 'dispute_reserve'))`.execute(db);
  await sql`delete from journal_entries j where not exists (select 1 from journal_lines l where l.journal_id = j.id)`.execute(db);
  await sql`alter table journal_lines enable trigger journal_lines_append_only`.execute(db);
  await sql`alter table journal_entries enable trigger journal_entries_append_only`.execute(db);
  await sql`delete from ledger_accounts where kind in ('disputes_open', 'dispute_reserve')`.execute(db);
  await sql`alter table journal_entries drop constraint journal_entries_kind_check`.execute(db);
  await sql`alter table journal_entries add constraint journal_entries_kind_check check (kind in (${list(JOURNALS)}))`.execute(db);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in (${list(KINDS)}))`.execute(db);
  await sql`set constraints all deferred`.execute(db);
}
