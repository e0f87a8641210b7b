import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Issue 22 (docs/payments.md):
 * - `price`: what the fan agreed to pay each period (the tier's discounted price when they
 *   subscribed). Renewals charge the lower of it and the tier's price of the day, so a price rise
 *   reaches new fans only and a cut reaches everyone at their next renewal. Existing subscriptions
 *   agreed to their tier's price of today. `next_price`: the price agreed for a tier change.
 * - subscription_billing_retries: a maintenance step that threw for a subscription is not tried
 *   for it again before `retry_at`, and rows without one come first, so one bad row cannot hold up
 *   the rest. A table of its own: a row the database refuses to change can still be set aside.
 * - `creator_unavailable_at`: the creator's profile turned private or hidden; the subscription
 *   was set to end at its period end and the fan told once.
 */
const discounted = (t: string) =>
  sql.raw(`round(round(${t}.price * 100) - round(${t}.price * 100) * coalesce(${t}.discount_percentage, 0) / 100.0) / 100`);

export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table subscriptions
    add column price numeric(10,2),
    add column next_price numeric(10,2),
    add column creator_unavailable_at timestamptz`.execute(db);
  await sql`update subscriptions s set price = ${discounted('t')} from subscription_tiers t where t.id = s.tier_id`.execute(db);
  await sql`update subscriptions s set next_price = ${discounted('t')} from subscription_tiers t where t.id = s.next_tier_id`.execute(db);
  await sql`alter table subscriptions alter column price set not null,
    add constraint subscriptions_price_check check (price >= 0),
    add constraint subscriptions_next_price_check check (next_price >= 0)`.execute(db);
  await sql`create table subscription_billing_retries (
    subscription_id uuid primary key references subscriptions (id) on delete cascade,
    step text not null,
    failures integer not null default 1,
    retry_at timestamptz not null
  )`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table subscription_billing_retries`.execute(db);
  await sql`alter table subscriptions drop column creator_unavailable_at, drop column next_price, drop column price`.execute(db);
}
