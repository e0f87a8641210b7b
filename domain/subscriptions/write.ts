import { randomUUID } from 'node:crypto';
import { discountedPrice } from '../../common/discounted-price';
import type { SubscriptionStatus } from '../../common/enums';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';

export interface SubscriptionRecord {
  /** chosen by the caller when something else must point at the row (the seed's payments); new otherwise */
  id?: string;
  subscriberId: string;
  tierId: string;
  status: SubscriptionStatus;
  periodStart: Date;
  periodEnd: Date;
  /**
   * what the fan agreed to pay each period, in cents; the tier's discounted price by default.
   * Renewals charge at most this (domain/billing/prices.ts).
   */
  priceCents?: number;
  /** 'builtin' by default; 'stripe' with the provider's subscription id */
  provider?: string;
  providerSubscriptionId?: string | null;
  /** a free trial: its first period (to periodEnd) is not charged; renewals convert it (domain/billing/trial.ts) */
  trialEndsAt?: Date | null;
  /** bought as a bundle of this many periods: `priceCents` and the period are the bundle's (domain/billing/bundles.ts) */
  bundlePeriods?: number | null;
  /** now by default; the demo seed backdates its history */
  createdAt?: Date;
  updatedAt?: Date;
}

/**
 * The one writer of `subscriptions` and `subscribers`: nothing else inserts or updates either
 * table (subscribe, the demo seed and the test factories all come here), so the spec's
 * `subscribers` mirror can never disagree with the subscription it copies. Both go in one
 * transaction (the caller's, when `db` already is one). A subscription to a creator's tier
 * writes or refreshes the (creator, subscriber) row with its tier and status; the platform's
 * Premium tier belongs to no creator and writes none. Returns the subscription ids, in order.
 *
 * What counts as active is decided elsewhere, once (./active.ts); `subscribers` is not read for it.
 */
export async function recordSubscriptions(db: DB, records: readonly SubscriptionRecord[]): Promise<string[]> {
  if (records.length === 0) return [];
  const write = async (trx: DB) => {
    const tiers = await trx
      .selectFrom('subscription_tiers')
      .select(['id', 'creator_id', 'price_cents', 'discount_percentage'])
      .where('id', 'in', [...new Set(records.map((r) => r.tierId))])
      .execute();
    const tierOf = new Map(tiers.map((t) => [t.id, t]));
    const rows = records.map((r) => {
      const createdAt = r.createdAt ?? new Date();
      const tier = tierOf.get(r.tierId);
      return {
        id: r.id ?? randomUUID(),
        subscriber_id: r.subscriberId,
        tier_id: r.tierId,
        status: r.status,
        current_period_start: r.periodStart,
        current_period_end: r.periodEnd,
        // a missing tier is left to the foreign key to refuse
        price_cents: r.priceCents ?? (tier ? discountedPrice(readCents(tier.price_cents), tier.discount_percentage) : 0),
        provider: r.provider ?? 'builtin',
        provider_subscription_id: r.providerSubscriptionId ?? null,
        trial_ends_at: r.trialEndsAt ?? null,
        bundle_periods: r.bundlePeriods ?? null,
        created_at: createdAt,
        updated_at: r.updatedAt ?? createdAt,
      };
    });
    await trx.insertInto('subscriptions').values(rows).execute();
    // one row per (creator, subscriber): the last subscription recorded for the pair wins
    const mirror = new Map<string, { creator_id: string; subscriber_id: string; tier_id: string; status: SubscriptionStatus; created_at: Date; updated_at: Date }>();
    for (const r of rows) {
      const creatorId = tierOf.get(r.tier_id)?.creator_id;
      if (!creatorId) continue;
      mirror.set(`${creatorId}:${r.subscriber_id}`, {
        creator_id: creatorId,
        subscriber_id: r.subscriber_id,
        tier_id: r.tier_id,
        status: r.status,
        created_at: r.created_at,
        updated_at: r.updated_at,
      });
    }
    if (mirror.size > 0) {
      await trx
        .insertInto('subscribers')
        .values([...mirror.values()])
        .onConflict((oc) =>
          oc.columns(['creator_id', 'subscriber_id']).doUpdateSet((eb) => ({
            tier_id: eb.ref('excluded.tier_id'),
            status: eb.ref('excluded.status'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
    return rows.map((r) => r.id);
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

/** One subscription (see `recordSubscriptions`); returns its id. */
export async function recordSubscription(db: DB, record: SubscriptionRecord): Promise<string> {
  const [id] = await recordSubscriptions(db, [record]);
  return id!;
}

/** What the billing lifecycle changes on a subscription (renewal, cancel, resume, past due, end). */
export interface SubscriptionChange {
  tierId?: string;
  status?: SubscriptionStatus;
  periodStart?: Date;
  periodEnd?: Date;
  cancelAtPeriodEnd?: boolean;
  pastDueSince?: Date | null;
  graceUntil?: Date | null;
  nextTierId?: string | null;
  remindedPeriodEnd?: Date | null;
  /** the price agreed per period, and the one agreed for next_tier_id, in cents */
  priceCents?: number;
  nextPriceCents?: number | null;
  creatorUnavailableAt?: Date | null;
  /** a renewal after a tier change ends a bundle (null): it renews one period at a time */
  bundlePeriods?: number | null;
}

/**
 * Changes one subscription, and its creator's `subscribers` row (tier and status) when that row
 * mirrors this subscription's pair, in one transaction (the caller's when `db` is one). The only
 * updater of both tables, as `recordSubscriptions` is their only inserter.
 */
export async function updateSubscription(db: DB, id: string, change: SubscriptionChange, at: Date): Promise<void> {
  const write = async (trx: DB) => {
    const row = await trx
      .updateTable('subscriptions')
      .set({
        ...(change.tierId !== undefined && { tier_id: change.tierId }),
        ...(change.status !== undefined && { status: change.status }),
        ...(change.periodStart !== undefined && { current_period_start: change.periodStart }),
        ...(change.periodEnd !== undefined && { current_period_end: change.periodEnd }),
        ...(change.cancelAtPeriodEnd !== undefined && { cancel_at_period_end: change.cancelAtPeriodEnd }),
        ...(change.pastDueSince !== undefined && { past_due_since: change.pastDueSince }),
        ...(change.graceUntil !== undefined && { grace_until: change.graceUntil }),
        ...(change.nextTierId !== undefined && { next_tier_id: change.nextTierId }),
        ...(change.remindedPeriodEnd !== undefined && { reminded_period_end: change.remindedPeriodEnd }),
        ...(change.priceCents !== undefined && { price_cents: change.priceCents }),
        ...(change.nextPriceCents !== undefined && { next_price_cents: change.nextPriceCents }),
        ...(change.creatorUnavailableAt !== undefined && { creator_unavailable_at: change.creatorUnavailableAt }),
        ...(change.bundlePeriods !== undefined && { bundle_periods: change.bundlePeriods }),
        updated_at: at,
      })
      .where('id', '=', id)
      .returning(['subscriber_id', 'tier_id', 'status'])
      .executeTakeFirst();
    if (!row || (change.tierId === undefined && change.status === undefined)) return;
    const tier = await trx.selectFrom('subscription_tiers').select('creator_id').where('id', '=', row.tier_id).executeTakeFirst();
    if (!tier?.creator_id) return;
    await trx
      .updateTable('subscribers')
      .set({ tier_id: row.tier_id, status: row.status, updated_at: at })
      .where('creator_id', '=', tier.creator_id)
      .where('subscriber_id', '=', row.subscriber_id)
      .execute();
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
