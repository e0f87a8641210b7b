import { sql } from 'kysely';
import { isOneOf } from './lib/ddl';
import type { MigrationDb } from './lib/ddl';

/**
 * Paying without leaving the page (issue 27 item 6; docs/payments.md, "Cards and one-off Checkout").
 *
 * - payment_cards: a fan's card on file at the provider (Stripe): only the customer id, the payment
 *   method id, brand and last four digits; the card number never reaches the app. One per fan; a
 *   removed card clears the method but keeps the customer (the next card goes on the same one).
 * - pending_charges: a one-off purchase (a tip, a post or message unlock) the fan confirmed whose
 *   money the provider confirms later (a Checkout page, or a 3-D Secure step): what was confirmed,
 *   once per (fan, client key). The webhook that says the money is in writes the ledger's charge
 *   and sets payment_id in the same transaction, so a retried or second event writes nothing.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table payment_cards (
    user_id uuid primary key references users(id) on delete cascade,
    provider text not null,
    customer_id text not null,
    payment_method_id text,
    brand text,
    last4 text,
    updated_at timestamptz not null default now(),
    constraint payment_cards_method_check check ((payment_method_id is null) = (last4 is null) and (last4 is null or last4 ~ '^[0-9]{4}$'))
  )`.execute(db);

  await sql`create table pending_charges (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    idempotency_key text not null,
    purpose text not null,
    creator_id uuid not null references users(id) on delete cascade,
    post_id uuid references posts(id) on delete set null,
    message_id uuid references messages(id) on delete set null,
    tip_message text,
    amount numeric(10, 2) not null,
    description text not null,
    provider text not null,
    payment_id uuid references payments(id) on delete set null,
    created_at timestamptz not null default now(),
    constraint pending_charges_purpose_check check (${isOneOf('purpose', ['tip', 'post_unlock', 'message_unlock'])}),
    constraint pending_charges_amount_check check (amount > 0)
  )`.execute(db);
  await sql`create unique index pending_charges_user_key on pending_charges (user_id, idempotency_key)`.execute(db);
  // deleting a post, a message or a creator finds their pending charges without a scan
  await sql`create index pending_charges_post on pending_charges (post_id) where post_id is not null`.execute(db);
  await sql`create index pending_charges_message on pending_charges (message_id) where message_id is not null`.execute(db);
  await sql`create index pending_charges_creator on pending_charges (creator_id)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table pending_charges`.execute(db);
  await sql`drop table payment_cards`.execute(db);
}
