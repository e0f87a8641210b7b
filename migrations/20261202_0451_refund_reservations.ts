import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Issue 45 items 1 and 3 (docs/payments.md, "Refunds decided before they are made"):
 *  - every refund is a `refund_requests` row written under the charge's lock when it is decided
 *    (an admin's, a deleted creator's fans' pro rata ones, a duplicate purchase's or checkout's), and
 *    the creator's share comes off their balance then: a ledger row of the creator's (kind
 *    'reversal') naming the request, `refund_request_id`. When the provider confirms, the refund's
 *    payment row takes that row over (`payment_id` set); until then it counts in the creator's
 *    balance and the request counts against what is left of the charge.
 *  - kind 'loss' with its `reason`: money the platform bears for a creator it cannot recover it
 *    from (a reversal's creator share once the creator's account is gone, a balance below zero
 *    when the account is deleted), never a row with no owner.
 * Rows of a payment are unique per (payment, account, kind): a reversal of a deleted creator's
 * charge is the platform's 'reversal' row and its 'loss' row.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('ledger_entries')
    .addColumn('refund_request_id', 'uuid', (c) => c.references('refund_requests.id').onDelete('restrict'))
    .addColumn('reason', 'text')
    .execute();
  await sql`alter table ledger_entries drop constraint ledger_entries_kind_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in ('charge', 'reversal', 'payout', 'payout_returned', 'loss'))`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_source`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_source check (
    (payment_id is null or payout_id is null)
    and (payment_id is not null or payout_id is not null or refund_request_id is not null or kind = 'loss'))`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_loss_reason check ((kind = 'loss') = (reason is not null))`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_refund_request_kind check (refund_request_id is null or kind in ('reversal', 'loss'))`.execute(db);
  await sql`drop index ledger_entries_payment_idx`.execute(db);
  await sql`create unique index ledger_entries_payment_idx on ledger_entries (payment_id, account, kind) where payment_id is not null`.execute(db);
  // one share taken per request, and at most one given back (a refund never made)
  await sql`create unique index ledger_entries_refund_request_idx on ledger_entries (refund_request_id, (amount_cents > 0)) where refund_request_id is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index ledger_entries_refund_request_idx`.execute(db);
  await sql`delete from ledger_entries where kind = 'loss' or (payment_id is null and payout_id is null)`.execute(db);
  await sql`drop index ledger_entries_payment_idx`.execute(db);
  await sql`create unique index ledger_entries_payment_idx on ledger_entries (payment_id, account) where payment_id is not null`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_refund_request_kind`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_loss_reason`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_source`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_source check ((payment_id is null) <> (payout_id is null))`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_kind_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_kind_check check (kind in ('charge', 'reversal', 'payout', 'payout_returned'))`.execute(db);
  await db.schema.alterTable('ledger_entries').dropColumn('refund_request_id').dropColumn('reason').execute();
}
