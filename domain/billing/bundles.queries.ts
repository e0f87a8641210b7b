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

/** The bundles of these tiers in one statement (a page's tiers: no query per tier), shortest first. */
export async function findBundlesOfTiers(db: DB, tierIds: readonly string[]): Promise<TierBundleRow[]> {
  if (tierIds.length === 0) return [];
  const rows = await db
    .selectFrom('tier_bundles')
    .select(['tier_id', 'periods', 'percent'])
    .where('tier_id', 'in', tierIds)
    .orderBy('tier_id')
    .orderBy('periods')
    .execute();
  return rows as TierBundleRow[];
}
