import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * THE definition of an active subscription, read by everything that asks: the access rule
 * (premium media), the subscriber counts (featured creators, Explore's creator cards, the profile
 * header) and the profile's Subscribed state. A subscription is active while its status is
 * 'active' and its current_period_end is in the future; it belongs to the creator of its tier
 * (subscription_tiers.creator_id; the platform's Premium tier has none, so it counts for nobody).
 *
 * Cancelling: the spec knows only the statuses 'active', 'canceled' and 'expired'. A fan who
 * cancels keeps what they paid for, so a cancellation that runs to the end of the period keeps
 * the status 'active' until current_period_end (and is counted and entitled until then); the
 * status 'canceled' is a subscription that ended early (refund, chargeback) and counts for
 * nothing, whatever its period end says. The subscriptions issue adds "will not renew" as a
 * separate fact rather than changing this test.
 *
 * Past due (issue 11, docs/payments.md): a renewal charge that failed leaves the status 'active'
 * and sets grace_until (period end + BILLING_GRACE_DAYS); access lasts while either the period or
 * the grace is in the future. The maintenance job ends it ('expired') once both are past.
 *
 * `subscribers` (the spec's table) is a mirror written with each subscription by
 * `recordSubscriptions` (./write.ts); nothing reads it for these answers.
 */

/** The condition on one `subscriptions` row (by its table name or alias). */
export function activeSubscriptionWhere(subscription = 'subscriptions', at?: Date): RawBuilder<SqlBool> {
  // `at`: billing code's clock (core/clock.ts); everything else asks about now
  const now = at ? sql`${at}::timestamptz` : sql`now()`;
  return sql<SqlBool>`(${sql.ref(`${subscription}.status`)} = 'active' and (${sql.ref(`${subscription}.current_period_end`)} > ${now} or ${sql.ref(`${subscription}.grace_until`)} > ${now}))`;
}

/**
 * The creator's active subscribers (distinct fans), for the creator id in `creatorIdColumn`: a
 * correlated count for statements that have limited their creators first. Served by
 * subscription_tiers_creator_price_idx and subscriptions_tier_active_idx.
 */
export function activeSubscriberCount(creatorIdColumn: string): RawBuilder<string> {
  return sql<string>`(select count(distinct active_s.subscriber_id) from subscriptions active_s
    join subscription_tiers active_t on active_t.id = active_s.tier_id
    where active_t.creator_id = ${sql.ref(creatorIdColumn)} and ${activeSubscriptionWhere('active_s')})`;
}

/**
 * Whether `userId` (an id, or a column of the outer query) has an active subscription to the
 * creator in `creatorIdColumn`, as a condition inside a bigger statement (the profile header's
 * Subscribed state).
 */
export function activeSubscriptionExists(userId: string | RawBuilder<string>, creatorIdColumn: string): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from subscriptions s join subscription_tiers t on t.id = s.tier_id
    where s.subscriber_id = ${userId} and ${activeSubscriptionWhere('s')} and t.creator_id = ${sql.ref(creatorIdColumn)})`;
}

/** Of `creatorIds`, the creators `userId` has an active subscription to: one query for a whole page. */
export async function findActiveSubscriptionCreatorIds(db: DB, userId: string, creatorIds: string[]): Promise<string[]> {
  if (creatorIds.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers', 'subscription_tiers.id', 'subscriptions.tier_id')
    .select('subscription_tiers.creator_id')
    .distinct()
    .where('subscriptions.subscriber_id', '=', userId)
    .where(activeSubscriptionWhere('subscriptions'))
    .where('subscription_tiers.creator_id', 'in', creatorIds)
    .execute();
  return rows.map((r) => r.creator_id).filter((id): id is string => id !== null);
}
