import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * A new post's fan-out (domain/notifications/fan-out.ts) reads its creator's active subscribers in
 * batches of 1,000 by subscriber id, each batch after the last one's. subscriptions_tier_active_idx
 * is ordered by period end, so every batch read and sorted every active subscription of the tier
 * to keep 1,000: at 200,000 subscribers (bench/scale.ts) a batch in the middle read 100,000 rows,
 * and the whole fan-out read 200 times the tier. This index is in the batches' order, with what
 * the active test reads beside it, so a batch is an index-only walk that stops after its 1,000.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index subscriptions_tier_subscriber_active_idx on subscriptions (tier_id, subscriber_id) include (current_period_end, grace_until) where status = 'active'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index subscriptions_tier_subscriber_active_idx`.execute(db);
}
