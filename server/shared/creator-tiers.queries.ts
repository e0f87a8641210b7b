import { sql } from 'kysely';
import { withCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { activeSubscriptionWhere } from '../../domain/subscriptions/active';

const tierColumns = ['t.id', 't.name', 't.description', 't.price_cents', 't.payment_interval', 't.discount_percentage', 't.archived_at'] as const;

/**
 * The creator's tiers, live by price ascending, then the archived ones; active subscribers per tier
 * in the same query (the tier manager, and the earnings' per-tier counts). `id`: that one tier only.
 */
export async function findCreatorTiers(db: DB, creatorId: string, id?: string) {
  const rows = await db
    .selectFrom('subscription_tiers as t')
    .select([
      ...tierColumns,
      (eb) =>
        eb
          .selectFrom('subscriptions as s')
          .select(sql<string>`count(distinct s.subscriber_id)`.as('n'))
          .whereRef('s.tier_id', '=', 't.id')
          .where(activeSubscriptionWhere('s'))
          .as('active_subscribers'),
    ])
    .where('t.creator_id', '=', creatorId)
    .$if(id !== undefined, (qb) => qb.where('t.id', '=', id!))
    .orderBy(sql`t.archived_at is not null`)
    .orderBy('t.price_cents')
    .orderBy('t.created_at')
    .execute();
  return rows.map((row) => withCents(row, ['price_cents']));
}
export type TierRow = Awaited<ReturnType<typeof findCreatorTiers>>[number];
