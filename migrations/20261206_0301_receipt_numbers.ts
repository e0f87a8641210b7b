import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Receipt numbers (issue 47 item 6; docs/payments.md, "Receipts"): every charge that took money
 * (kind 'charge', status succeeded, or the old 'refunded' of a duplicate checkout undone) gets the
 * next number of one sequence, once, when it is written or when it becomes succeeded. A trigger,
 * not the writers, assigns it, so no path that writes payments (insertPayment, recordReversal, a
 * script, the tests' factories) can forget it, and reversals and failed charges take no number.
 * A sequence hands out numbers without a lock; a transaction rolled back after taking one leaves
 * a gap, which is rare (a charge is written after the provider said yes) and harmless.
 * Existing charges are numbered in the order they were made.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table payments add column receipt_number bigint`.execute(db);
  await sql`create sequence payment_receipt_number`.execute(db);
  await sql`with numbered as (
      select id, row_number() over (order by created_at, id) as n from payments
      where kind = 'charge' and status in ('succeeded', 'refunded')
    )
    update payments p set receipt_number = numbered.n from numbered where p.id = numbered.id`.execute(db);
  await sql`select setval('payment_receipt_number', coalesce((select max(receipt_number) from payments), 0) + 1, false)`.execute(db);
  await sql`create unique index payments_receipt_number on payments (receipt_number) where receipt_number is not null`.execute(db);
  await sql`alter table payments add constraint payments_receipt_charge check (receipt_number is null or kind = 'charge')`.execute(db);
  await sql`create function assign_receipt_number() returns trigger language plpgsql as $$
    begin
      if new.receipt_number is null and new.kind = 'charge' and new.status in ('succeeded', 'refunded') then
        new.receipt_number := nextval('payment_receipt_number');
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger payments_receipt_number before insert or update of status on payments
    for each row execute function assign_receipt_number()`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop trigger payments_receipt_number on payments`.execute(db);
  await sql`drop function assign_receipt_number()`.execute(db);
  await sql`alter table payments drop column receipt_number`.execute(db);
  await sql`drop sequence payment_receipt_number`.execute(db);
}
