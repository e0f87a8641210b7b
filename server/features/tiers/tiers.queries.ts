import type { DB } from '../../../core/db/kysely';
import type { TierInput } from '../../../common/billing-schemas';
import { toCents } from '../../../common/money';

const values = (input: TierInput) => ({
  name: input.name,
  description: input.description,
  price_cents: toCents(input.price),
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
