import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Offers (issue 27 item 5): a creator's `percent` off the first period of one tier (or, with
 * tier_id null, of every tier) for new fans (never subscribed to the creator) or for expired
 * subscribers (subscribed before, not now), from starts_at until ends_at. The server picks the
 * best live offer that applies to the fan when they subscribe (domain/billing/offers.ts);
 * renewals charge the tier's price as ever.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table offers (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references users(id) on delete cascade,
    tier_id uuid references subscription_tiers(id) on delete cascade,
    audience text not null check (audience in ('new', 'expired')),
    percent integer not null check (percent between 1 and 90),
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    disabled_at timestamptz,
    created_at timestamptz not null default now(),
    check (ends_at > starts_at)
  )`.execute(db);
  await sql`create index offers_creator on offers (creator_id, created_at desc, id desc)`.execute(db);
  await sql`create index offers_live on offers (creator_id, ends_at) where disabled_at is null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table offers`.execute(db);
}
