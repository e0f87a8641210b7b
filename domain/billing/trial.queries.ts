import { sql } from 'kysely';
import { withCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';

/** A trial link by its code, with its tier and what billing needs of its creator. */
export async function findTrialLinkByCode(db: DB, code: string) {
  const row = await db
    .selectFrom('trial_links as l')
    .innerJoin('subscription_tiers as t', 't.id', 'l.tier_id')
    .innerJoin('profiles as pr', 'pr.id', 'l.creator_id')
    .innerJoin('users as cu', 'cu.id', 'l.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'l.creator_id')
    .select([
      'l.id', 'l.code', 'l.creator_id', 'l.tier_id', 'l.days', 'l.max_claims', 'l.claims', 'l.expires_at', 'l.disabled_at',
      't.name as tier_name', 't.description as tier_description', 't.price_cents', 't.discount_percentage', 't.payment_interval', 't.archived_at',
      'pr.username as creator_username', 'pr.display_name as creator_display_name', 'pr.avatar_url as creator_avatar_url',
      'ps.profile_visibility as creator_visibility', 'cu.suspended_at as creator_suspended_at',
    ])
    .where('l.code', '=', code)
    .executeTakeFirst();
  return row && withCents(row, ['price_cents']);
}
export type TrialLinkRow = NonNullable<Awaited<ReturnType<typeof findTrialLinkByCode>>>;

/**
 * Takes one claim of the link, or none: one conditional update, so parallel claims queue on the
 * row and the count never passes max_claims (its check constraint backs this up).
 */
export async function takeTrialClaim(trx: DB, linkId: string, now: Date): Promise<boolean> {
  const row = await trx
    .updateTable('trial_links')
    .set({ claims: sql`claims + 1` })
    .where('id', '=', linkId)
    .where(sql<boolean>`claims < max_claims`)
    .where('disabled_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The fan's trial from this creator, if they ever had one, with its subscription. */
export async function findTrialClaim(db: DB, creatorId: string, fanId: string) {
  return db
    .selectFrom('trial_claims as c')
    .leftJoin('subscriptions as s', 's.id', 'c.subscription_id')
    .select(['c.id', 'c.trial_link_id', 'c.subscription_id', 's.trial_ends_at'])
    .where('c.creator_id', '=', creatorId)
    .where('c.fan_id', '=', fanId)
    .executeTakeFirst();
}

export async function insertTrialClaim(trx: DB, row: { linkId: string; creatorId: string; fanId: string; subscriptionId: string; at: Date }): Promise<void> {
  await trx
    .insertInto('trial_claims')
    .values({ trial_link_id: row.linkId, creator_id: row.creatorId, fan_id: row.fanId, subscription_id: row.subscriptionId, created_at: row.at })
    .execute();
}
