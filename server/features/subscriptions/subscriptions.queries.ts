import { sql } from 'kysely';
import { withCents } from '../../../core/db/cents';
import type { DB } from '../../../core/db/kysely';
import { verifiedBadge } from '../../../domain/access/verified-badge';
import { activeSubscriptionWhere } from '../../../domain/subscriptions/active';

/** A creator by username for the subscribe page, with their visibility. */
export function findCreatorByUsername(db: DB, username: string) {
  return db
    .selectFrom('profiles as pr')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
    .select(['pr.id', 'pr.username', 'pr.display_name', 'pr.avatar_url', verifiedBadge('pr').as('verified_badge'), 'pr.is_creator', 'ps.profile_visibility'])
    .where(sql`lower(pr.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

/** The tiers new fans may choose: not archived, price ascending. */
export async function findLiveTiers(db: DB, creatorId: string) {
  const rows = await db
    .selectFrom('subscription_tiers')
    .select(['id', 'name', 'description', 'price_cents', 'payment_interval', 'discount_percentage'])
    .where('creator_id', '=', creatorId)
    .where('archived_at', 'is', null)
    .orderBy('price_cents')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => withCents(row, ['price_cents']));
}

/** What a subscription unlocks today: the creator's published premium posts, counted by kind in one query. */
export function countPremiumPostsByKind(db: DB, creatorId: string) {
  return db
    .selectFrom('posts')
    .select(['media_kind', sql<string>`count(*)`.as('n')])
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'published')
    .where('is_premium', '=', true)
    .groupBy('media_kind')
    .execute();
}

export async function findPlatformTier(db: DB, tierId: string | null) {
  const row = await db
    .selectFrom('subscription_tiers')
    .select(['id', 'name', 'description', 'price_cents', 'payment_interval', 'discount_percentage'])
    .where('creator_id', 'is', null)
    .$if(tierId !== null, (qb) => qb.where('id', '=', tierId!))
    .$if(tierId === null, (qb) => qb.where('name', '=', 'Premium'))
    .executeTakeFirst();
  return row && withCents(row, ['price_cents']);
}

/** The fan's subscriptions: active ones first (by period end), then ended ones (newest first); one query. `id`: that one only. */
export async function findMySubscriptions(db: DB, userId: string, { id, limit = 100 }: { id?: string; limit?: number } = {}) {
  const rows = await db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .leftJoin('profiles as pr', 'pr.id', 't.creator_id')
    .leftJoin('subscription_tiers as nt', 'nt.id', 's.next_tier_id')
    .leftJoin('tier_bundles as b', (j) => j.onRef('b.tier_id', '=', 's.tier_id').onRef('b.periods', '=', 's.bundle_periods'))
    .select([
      's.id',
      's.status',
      's.bundle_periods',
      'b.percent as bundle_percent',
      's.current_period_end',
      's.cancel_at_period_end',
      's.grace_until',
      's.trial_ends_at',
      's.past_due_since',
      's.price_cents as agreed_price_cents',
      sql<boolean>`${activeSubscriptionWhere('s')}`.as('is_active'),
      't.id as tier_id',
      't.name as tier_name',
      't.price_cents',
      't.payment_interval',
      't.discount_percentage',
      't.archived_at',
      't.creator_id',
      'pr.username',
      'pr.display_name',
      'pr.avatar_url',
      'nt.id as next_tier_id',
      'nt.name as next_tier_name',
    ])
    .where('s.subscriber_id', '=', userId)
    .$if(id !== undefined, (qb) => qb.where('s.id', '=', id!))
    .orderBy(sql`${activeSubscriptionWhere('s')} desc`)
    .orderBy('s.current_period_end', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => withCents(row, ['agreed_price_cents', 'price_cents']));
}
export type MySubscriptionRow = Awaited<ReturnType<typeof findMySubscriptions>>[number];
