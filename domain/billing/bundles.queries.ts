import type { BundlePeriods } from '../../common/bundle-schemas';
import type { DB } from '../../core/db/kysely';

export interface TierBundleRow {
  tier_id: string;
  periods: BundlePeriods;
  percent: number;
}

/** The percent off of one tier's bundle of this length; null when the creator offers none. */
export async function findBundlePercent(db: DB, tierId: string, periods: number): Promise<number | null> {
  const row = await db.selectFrom('tier_bundles').select('percent').where('tier_id', '=', tierId).where('periods', '=', periods).executeTakeFirst();
  return row?.percent ?? null;
}

/**
 * Bundles in one statement, shortest first per tier: of these tiers (a page's tiers: no query per
 * tier), or of every tier of one creator (their tier manager).
 */
export async function findBundles(db: DB, of: { tierIds: readonly string[] } | { creatorId: string }): Promise<TierBundleRow[]> {
  if ('tierIds' in of && of.tierIds.length === 0) return [];
  const rows = await db
    .selectFrom('tier_bundles as b')
    .innerJoin('subscription_tiers as t', 't.id', 'b.tier_id')
    .select(['b.tier_id', 'b.periods', 'b.percent'])
    .$if('tierIds' in of, (qb) => qb.where('b.tier_id', 'in', (of as { tierIds: string[] }).tierIds))
    .$if('creatorId' in of, (qb) => qb.where('t.creator_id', '=', (of as { creatorId: string }).creatorId))
    .orderBy('b.tier_id')
    .orderBy('b.periods')
    .execute();
  return rows as TierBundleRow[];
}
