import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import type { TierInput } from '../../../common/billing-schemas';
import { activeSubscriptionWhere } from '../../../domain/subscriptions/active';

const tierColumns = ['t.id', 't.name', 't.description', 't.price', 't.payment_interval', 't.discount_percentage', 't.archived_at'] as const;

/**
 * The creator's tiers, live by price ascending, then the archived ones; active subscribers per tier
 * in the same query (the tier manager, and the earnings' per-tier counts). `id`: that one tier only.
 */
export function findCreatorTiers(db: DB, creatorId: string, id?: string) {
  return db
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
    .orderBy('t.price')
    .orderBy('t.created_at')
    .execute();
}
export type TierRow = Awaited<ReturnType<typeof findCreatorTiers>>[number];

const values = (input: TierInput) => ({
  name: input.name,
  description: input.description,
  price: input.price,
  payment_interval: input.paymentInterval,
  discount_percentage: input.discountPercentage,
});

export async function insertTier(db: DB, creatorId: string, input: TierInput): Promise<string> {
  const row = await db
    .insertInto('subscription_tiers')
    .values({ creator_id: creatorId, ...values(input) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Changes a live tier of the creator; false when there is none with that id. Paid periods keep their payments. */
export async function updateTier(db: DB, creatorId: string, id: string, input: TierInput): Promise<boolean> {
  const result = await db
    .updateTable('subscription_tiers')
    .set({ ...values(input), updated_at: new Date() })
    .where('id', '=', id)
    .where('creator_id', '=', creatorId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Deletes the tier when nobody ever subscribed to it; archives it otherwise (the subscriptions and
 * the ledger keep pointing at it, and its subscribers keep it). Locks the tier first so a
 * subscription arriving meanwhile cannot be lost with it.
 */
export async function deleteOrArchiveTier(db: DB, creatorId: string, id: string): Promise<'deleted' | 'archived' | null> {
  return db.transaction().execute(async (trx) => {
    const tier = await trx
      .selectFrom('subscription_tiers')
      .select(['id', 'archived_at'])
      .where('id', '=', id)
      .where('creator_id', '=', creatorId)
      .forUpdate()
      .executeTakeFirst();
    if (!tier) return null;
    const used = await trx
      .selectFrom('subscriptions')
      .select('id')
      .where((eb) => eb.or([eb('tier_id', '=', id), eb('next_tier_id', '=', id)]))
      .limit(1)
      .executeTakeFirst();
    if (!used) {
      await trx.deleteFrom('subscription_tiers').where('id', '=', id).execute();
      return 'deleted';
    }
    if (!tier.archived_at) await trx.updateTable('subscription_tiers').set({ archived_at: new Date(), updated_at: new Date() }).where('id', '=', id).execute();
    return 'archived';
  });
}
