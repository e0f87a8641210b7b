import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Subscriber counts read the one definition of an active subscription (domain/subscriptions/
 * active.ts: status 'active', current_period_end in the future, through the tier's creator)
 * instead of `subscribers.status`. A creator's count walks their tiers
 * (subscription_tiers_creator_price_idx) and, per tier, the active subscriptions still in their
 * period: this partial index holds only active rows, ordered by period end, with the subscriber
 * for the distinct count, so the count reads the index alone and never the lapsed or cancelled rows.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index subscriptions_tier_active_idx on subscriptions (tier_id, current_period_end) include (subscriber_id) where status = 'active'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index subscriptions_tier_active_idx`.execute(db);
}
