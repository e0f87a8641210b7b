import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';

export const TRIAL_PAGE = 20;

/** The creator's own live tier (a trial is of one of their tiers, never another creator's). */
export async function findOwnLiveTier(db: DB, creatorId: string, tierId: string) {
  return db
    .selectFrom('subscription_tiers')
    .select(['id', 'name'])
    .where('id', '=', tierId)
    .where('creator_id', '=', creatorId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export async function insertTrialLink(db: DB, row: { creatorId: string; tierId: string; code: string; days: number; maxClaims: number; expiresAt: Date; at: Date }) {
  return db
    .insertInto('trial_links')
    .values({ creator_id: row.creatorId, tier_id: row.tierId, code: row.code, days: row.days, max_claims: row.maxClaims, expires_at: row.expiresAt, created_at: row.at })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const linkColumns = [
  'l.id', 'l.code', 'l.tier_id', 't.name as tier_name', 'l.days', 'l.max_claims', 'l.claims', 'l.expires_at', 'l.disabled_at', 'l.created_at',
] as const;

/** A page of the creator's links, newest first (index trial_links_creator). */
export async function findTrialLinks(db: DB, creatorId: string, after: { createdAt: Date; id: string } | null, limit = TRIAL_PAGE) {
  let q = db
    .selectFrom('trial_links as l')
    .innerJoin('subscription_tiers as t', 't.id', 'l.tier_id')
    .select(linkColumns)
    .where('l.creator_id', '=', creatorId);
  if (after) q = q.where(sql<boolean>`(l.created_at, l.id) < (${after.createdAt}, ${after.id})`);
  return q.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(limit + 1).execute();
}

export async function findTrialLink(db: DB, creatorId: string, id: string) {
  return db
    .selectFrom('trial_links as l')
    .innerJoin('subscription_tiers as t', 't.id', 'l.tier_id')
    .select(linkColumns)
    .where('l.creator_id', '=', creatorId)
    .where('l.id', '=', id)
    .executeTakeFirst();
}
export type TrialLinkListRow = NonNullable<Awaited<ReturnType<typeof findTrialLink>>>;

/** Disables the creator's own link (another creator's id changes nothing); true when it is theirs. */
export async function disableTrialLink(db: DB, creatorId: string, id: string, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('trial_links')
    .set({ disabled_at: sql<Date>`coalesce(disabled_at, ${at}::timestamptz)` })
    .where('id', '=', id)
    .where('creator_id', '=', creatorId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
