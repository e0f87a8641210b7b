import { withCents } from '../../../core/db/cents';
import type { DB } from '../../../core/db/kysely';

/** The creator's own tier (live or archived): the one id check of every bundle write. */
export function findOwnTier(db: DB, creatorId: string, tierId: string) {
  return db
    .selectFrom('subscription_tiers')
    .select(['id', 'payment_interval', 'archived_at'])
    .where('id', '=', tierId)
    .where('creator_id', '=', creatorId)
    .executeTakeFirst();
}

/** The creator's tiers with what prices a bundle (archived ones too: their bundles are listed, not sold). */
export async function findCreatorTierPrices(db: DB, creatorId: string) {
  const rows = await db.selectFrom('subscription_tiers').select(['id', 'price_cents', 'discount_percentage', 'payment_interval']).where('creator_id', '=', creatorId).execute();
  return rows.map((row) => withCents(row, ['price_cents']));
}

/** The tier's bundles become exactly `bundles`: the lengths left out are removed, in one transaction. */
export async function replaceTierBundles(db: DB, tierId: string, bundles: readonly { periods: number; percent: number }[], at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const keep = bundles.map((b) => b.periods);
    await trx
      .deleteFrom('tier_bundles')
      .where('tier_id', '=', tierId)
      .$if(keep.length > 0, (qb) => qb.where('periods', 'not in', keep))
      .execute();
    if (bundles.length === 0) return;
    await trx
      .insertInto('tier_bundles')
      .values(bundles.map((b) => ({ tier_id: tierId, periods: b.periods, percent: b.percent, created_at: at, updated_at: at })))
      .onConflict((oc) => oc.columns(['tier_id', 'periods']).doUpdateSet((eb) => ({ percent: eb.ref('excluded.percent'), updated_at: at })))
      .execute();
  });
}
