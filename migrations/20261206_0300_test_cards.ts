import { sql } from 'kysely';
import { isOneOf } from './lib/ddl';
import type { MigrationDb } from './lib/ddl';

/**
 * The built-in provider's wallet (issue 47 item 6; docs/payments.md, "The wallet"): test cards a fan
 * adds, makes default and removes on Settings > Payment while the built-in provider is configured.
 * A test card is one of a fixed set (common/test-cards.ts), names nothing at any provider and is
 * never charged: it exists so the wallet can be tried without a card provider. Stripe's card on
 * file stays in payment_cards (it is a payment method at Stripe). At most one default per fan (a
 * partial unique index), each test card once per fan.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table test_cards (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    brand text not null,
    last4 text not null,
    is_default boolean not null default false,
    created_at timestamptz not null default now(),
    constraint test_cards_brand_check check (${isOneOf('brand', ['visa', 'mastercard', 'amex'])}),
    constraint test_cards_last4_check check (last4 ~ '^[0-9]{4}$')
  )`.execute(db);
  await sql`create unique index test_cards_user_brand on test_cards (user_id, brand)`.execute(db);
  await sql`create unique index test_cards_one_default on test_cards (user_id) where is_default`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table test_cards`.execute(db);
}
