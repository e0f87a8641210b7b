import { sql } from 'kysely';
import { isOneOf } from './lib/ddl';
import type { MigrationDb } from './lib/ddl';

/**
 * Money that is not a subscription (issue 27): payments.purpose says what a charge bought —
 * 'subscription' (every row so far), 'tip' (buys nothing, never unlocks anything) — and a tip's
 * optional short note to the creator (at most 200 characters) is kept with it. Tips are ordinary
 * payment rows written by insertPayment, so the fan's history, receipts, refunds and the earnings
 * split treat them like any charge.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table payments
    add column purpose text not null default 'subscription',
    add column tip_message text`.execute(db);
  await sql`alter table payments add constraint payments_purpose_check check (${isOneOf('purpose', ['subscription', 'tip'])})`.execute(db);
  await sql`alter table payments add constraint payments_tip_message_check check (tip_message is null or (purpose = 'tip' and char_length(tip_message) <= 200))`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table payments drop column tip_message, drop column purpose`.execute(db);
}
