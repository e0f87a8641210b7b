import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * Of `creatorIds`, the creators `userId` has an active subscription to: status 'active' and a
 * period end in the future, through the tier's creator. One query for a whole page.
 */
export async function findActiveSubscriptionCreatorIds(db: DB, userId: string, creatorIds: string[]): Promise<string[]> {
  if (creatorIds.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers', 'subscription_tiers.id', 'subscriptions.tier_id')
    .select('subscription_tiers.creator_id')
    .distinct()
    .where('subscriptions.subscriber_id', '=', userId)
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.current_period_end', '>', sql<Date>`now()`)
    .where('subscription_tiers.creator_id', 'in', creatorIds)
    .execute();
  return rows.map((r) => r.creator_id).filter((id): id is string => id !== null);
}

/**
 * The same test as `findActiveSubscriptionCreatorIds`, as a condition on one creator column
 * inside a bigger statement (the profile header's Subscribed state): true when `userId` has an
 * active subscription with a period end in the future to a tier of that creator.
 */
export function activeSubscriptionExists(userId: string, creatorIdColumn: string) {
  return sql<boolean>`exists (
    select 1 from subscriptions s join subscription_tiers t on t.id = s.tier_id
    where s.subscriber_id = ${userId} and s.status = 'active' and s.current_period_end > now()
      and t.creator_id = ${sql.ref(creatorIdColumn)})`;
}

/** What the access rule needs to know about each of these posts (missing ids are left out). */
export async function findPostAccessFacts(db: DB, postIds: string[]) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('posts')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'ps.profile_visibility'])
    .where('posts.id', 'in', postIds)
    .execute();
}
