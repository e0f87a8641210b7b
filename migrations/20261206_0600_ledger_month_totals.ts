import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * A creator's figures without reading every line (issue 45; docs/performance.md, "Earnings"):
 * `ledger_month_totals` holds, for each creator account, UTC month and journal kind, the sum of its
 * lines. A statement-level trigger on journal_lines adds each insert's lines to it in the same
 * statement, so the totals are always exactly the lines (which are never updated or deleted) and
 * no writer can forget them. Balances, net earnings and the monthly chart read these few rows
 * instead of a year of lines (the part of a balance that depends on the time of day, pending
 * earnings still held, is read from the lines by `available_at`).
 *
 * Creator accounts only: every payment posts to the platform's own accounts, whose rows would be
 * one lock every payment of the platform queues on; a creator's rows are locked only by that
 * creator's postings, until their transaction ends. Rows are taken in key order.
 */
export async function up(db: MigrationDb): Promise<void> {
  // migrations run in one transaction: journals an earlier one posted are checked before journal_lines changes
  await sql`set constraints all immediate`.execute(db);
  await sql`
    create table ledger_month_totals (
      account_id uuid not null references ledger_accounts(id) on delete restrict,
      month date not null,
      kind text not null,
      cents bigint not null,
      primary key (account_id, month, kind)
    )`.execute(db);
  await sql`
    create function roll_up_creator_lines() returns trigger language plpgsql as $$
    begin
      insert into ledger_month_totals as t (account_id, month, kind, cents)
      select n.account_id, date_trunc('month', n.occurred_at at time zone 'UTC')::date, n.kind, sum(n.amount_cents)
      from new_lines n join ledger_accounts a on a.id = n.account_id
      where a.kind in ('creator_pending', 'creator_available')
      group by 1, 2, 3
      order by 1, 2, 3
      on conflict (account_id, month, kind) do update set cents = t.cents + excluded.cents;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger journal_lines_month_totals after insert on journal_lines
    referencing new table as new_lines for each statement execute function roll_up_creator_lines()`.execute(db);
  await sql`
    insert into ledger_month_totals (account_id, month, kind, cents)
    select l.account_id, date_trunc('month', l.occurred_at at time zone 'UTC')::date, l.kind, sum(l.amount_cents)
    from journal_lines l join ledger_accounts a on a.id = l.account_id
    where a.kind in ('creator_pending', 'creator_available')
    group by 1, 2, 3`.execute(db);
  await sql`set constraints all deferred`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`set constraints all immediate`.execute(db);
  await sql`drop trigger journal_lines_month_totals on journal_lines`.execute(db);
  await sql`drop function roll_up_creator_lines()`.execute(db);
  await sql`drop table ledger_month_totals`.execute(db);
  await sql`set constraints all deferred`.execute(db);
}
