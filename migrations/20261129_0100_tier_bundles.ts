import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Bundles (issue 27 item 5): a creator's tier bought for 3, 6 or 12 periods at once at `percent`
 * off (one row per tier and length; none: no bundle of that length). A subscription bought as a
 * bundle keeps its length in `subscriptions.bundle_periods`: its price is the bundle's total, its
 * period runs that many of the tier's periods, and it renews as the same bundle
 * (docs/payments.md, Bundles).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table tier_bundles (
    tier_id uuid not null references subscription_tiers(id) on delete cascade,
    periods integer not null check (periods in (3, 6, 12)),
    percent integer not null check (percent between 1 and 75),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    primary key (tier_id, periods)
  )`.execute(db);
  await sql`alter table subscriptions add column bundle_periods integer check (bundle_periods in (3, 6, 12))`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table subscriptions drop column bundle_periods`.execute(db);
  await sql`drop table tier_bundles`.execute(db);
}
