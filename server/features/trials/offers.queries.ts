import type { DB } from '../../../core/db/kysely';

const columns = ['o.id', 'o.tier_id', 't.name as tier_name', 'o.audience', 'o.percent', 'o.starts_at', 'o.ends_at', 'o.disabled_at'] as const;

export async function insertOffer(db: DB, row: { creatorId: string; tierId: string | null; audience: 'new' | 'expired'; percent: number; startsAt: Date; endsAt: Date; at: Date }) {
  return db
    .insertInto('offers')
    .values({ creator_id: row.creatorId, tier_id: row.tierId, audience: row.audience, percent: row.percent, starts_at: row.startsAt, ends_at: row.endsAt, created_at: row.at })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The creator's offers, newest first (index offers_creator); a creator has a handful, capped at 100. */
export async function findOffers(db: DB, creatorId: string, id?: string) {
  let q = db.selectFrom('offers as o').leftJoin('subscription_tiers as t', 't.id', 'o.tier_id').select(columns).where('o.creator_id', '=', creatorId);
  if (id) q = q.where('o.id', '=', id);
  return q.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(100).execute();
}
export type OfferRow = Awaited<ReturnType<typeof findOffers>>[number];

/** Ends the creator's own offer now; another creator's id changes nothing. */
export async function endOffer(db: DB, creatorId: string, id: string, at: Date): Promise<boolean> {
  const row = await db.updateTable('offers').set({ disabled_at: at }).where('id', '=', id).where('creator_id', '=', creatorId).where('disabled_at', 'is', null).returning('id').executeTakeFirst();
  if (row) return true;
  return (await db.selectFrom('offers').select('id').where('id', '=', id).where('creator_id', '=', creatorId).executeTakeFirst()) !== undefined;
}
