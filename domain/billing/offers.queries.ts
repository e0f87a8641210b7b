import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { offerPrice } from './prices';

export interface AppliedOffer {
  id: string;
  percent: number;
  audience: 'new' | 'expired';
  endsAt: Date;
}

/**
 * The best live offer of the creator that applies to this fan for these tiers (issue 27 item 5):
 * 'new' when the fan never subscribed to the creator, 'expired' when they did and nothing is
 * active now; a visitor (fanId null) is shown the offers for new fans. One statement for every
 * tier of the page (no query per tier): tier id -> offer.
 */
export async function bestOffers(db: DB, creatorId: string, fanId: string | null, tierIds: readonly string[], now: Date): Promise<Map<string, AppliedOffer>> {
  if (tierIds.length === 0) return new Map();
  const history = fanId
    ? await db
        .selectFrom('subscriptions as s')
        .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
        .select([
          sql<number>`count(*)`.as('ever'),
          sql<number>`count(*) filter (where s.status = 'active' and (s.current_period_end > ${now} or s.grace_until > ${now}))`.as('active'),
        ])
        .where('s.subscriber_id', '=', fanId)
        .where('t.creator_id', '=', creatorId)
        .executeTakeFirstOrThrow()
    : { ever: 0, active: 0 };
  if (Number(history.active) > 0) return new Map();
  const audience = Number(history.ever) > 0 ? 'expired' : 'new';
  const rows = await db
    .selectFrom('offers')
    .select(['id', 'tier_id', 'percent', 'audience', 'ends_at'])
    .where('creator_id', '=', creatorId)
    .where('audience', '=', audience)
    .where('disabled_at', 'is', null)
    .where('starts_at', '<=', now)
    .where('ends_at', '>', now)
    .where((eb) => eb.or([eb('tier_id', 'is', null), eb('tier_id', 'in', tierIds)]))
    .execute();
  const best = new Map<string, AppliedOffer>();
  for (const tierId of tierIds) {
    for (const r of rows) {
      if (r.tier_id !== null && r.tier_id !== tierId) continue;
      const cur = best.get(tierId);
      if (!cur || r.percent > cur.percent) best.set(tierId, { id: r.id, percent: r.percent, audience: r.audience, endsAt: r.ends_at });
    }
  }
  return best;
}

/** What the fan pays now for the tier, in cents: its price, or less under the best offer for them. */
export async function firstPeriodPrice(
  db: DB,
  creatorId: string,
  fanId: string,
  tierId: string,
  baseCents: number,
  now: Date,
): Promise<{ amountCents: number; offer: AppliedOffer | null }> {
  const offer = (await bestOffers(db, creatorId, fanId, [tierId], now)).get(tierId) ?? null;
  return { amountCents: offer ? offerPrice(baseCents, offer.percent) : baseCents, offer };
}
