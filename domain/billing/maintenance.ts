import { sql } from 'kysely';
import { discountedPrice } from '../../common/billing-schemas';
import type { DB } from '../../core/db/kysely';
import type { PaymentProvider } from '../../core/payments/provider';
import { updateSubscription } from '../subscriptions/write';
import { findTierForBilling, insertPayment, setPremiumFlag } from './billing.queries';
import type { Clock } from './clock';
import { noEffects, type BillingEffects } from './effects';
import { paymentDescription } from './purchase';
import { DAY_MS, GRACE_DAYS, periodEndFor, REMINDER_DAYS, RENEW_AHEAD_MS } from './periods';

/** Subscriptions handled per run and step; the job runs every few minutes, so a backlog drains. */
const BATCH = 500;

export interface BillingRunResult {
  renewed: number;
  pastDue: number;
  expired: number;
  reminders: { subscriptionId: string; periodEnd: Date }[];
  effects: BillingEffects;
}

/**
 * The billing lifecycle, run by the `billing-maintenance` job (docs/payments.md), on `clock`:
 * 1. renew: subscriptions not cancelled whose period ends within RENEW_AHEAD_MS (or is over,
 *    within its grace) are charged through the provider at the tier's price of today (the next
 *    tier's, after a tier change); the new period starts at the old end. A charge that fails makes
 *    the subscription past due: access until period end + GRACE_DAYS, retried each run.
 *    Stripe's own subscriptions renew through its webhooks, not here.
 * 2. expire: active subscriptions whose period and grace are over end ('expired'); a lapsed
 *    Premium turns the profile's is_premium off; each lapse is announced to the fan.
 * 3. remind: annual subscriptions renewing within REMINDER_DAYS get one reminder per period.
 * Each renewal is its own transaction with the payment keyed by (subscription, period end), so a
 * job that runs twice, or two workers at once, charge a period once.
 */
export async function runBillingMaintenance(deps: { db: DB; provider: PaymentProvider; clock: Clock }): Promise<BillingRunResult> {
  const { db, provider, clock } = deps;
  const now = clock.now();
  const out: BillingRunResult = { renewed: 0, pastDue: 0, expired: 0, reminders: [], effects: noEffects() };

  if (provider.flow === 'direct') {
    const due = await db
      .selectFrom('subscriptions')
      .select('id')
      .where('status', '=', 'active')
      .where('cancel_at_period_end', '=', false)
      .where('provider', '<>', 'stripe')
      .where('current_period_end', '<=', new Date(now.getTime() + RENEW_AHEAD_MS))
      .where((eb) => eb.or([eb('grace_until', 'is', null), eb('grace_until', '>', now)]))
      .orderBy('current_period_end')
      .limit(BATCH)
      .execute();
    for (const { id } of due) {
      const outcome = await renewOne(db, provider, id, now);
      if (outcome === 'past-due') out.pastDue += 1;
      else if (outcome && 'failedPaymentId' in outcome) {
        out.pastDue += 1;
        out.effects.renewalFailures.push({ paymentId: outcome.failedPaymentId });
      } else if (outcome) {
        out.renewed += 1;
        out.effects.receipts.push(outcome);
      }
    }
  }

  // 2. expire what is over (the cancelled at their end, the past due after their grace)
  const lapsed = await db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.id', 's.subscriber_id', 't.creator_id'])
    .where('s.status', '=', 'active')
    .where('s.current_period_end', '<=', now)
    .where((eb) => eb.or([eb('s.grace_until', 'is', null), eb('s.grace_until', '<=', now)]))
    .where((eb) =>
      eb.or([
        // cancelled: ends at its period end
        eb('s.cancel_at_period_end', '=', true),
        // past due: ends when its grace is over
        eb('s.grace_until', 'is not', null),
        // Stripe's renew by webhook: one that heard nothing for GRACE_DAYS past its end is over
        eb.and([eb('s.provider', '=', 'stripe'), eb('s.current_period_end', '<=', new Date(now.getTime() - GRACE_DAYS * DAY_MS))]),
        // a subscription this job renews is renewed above (or made past due), never ended here
      ]),
    )
    .limit(BATCH)
    .execute();
  for (const row of lapsed) {
    await db.transaction().execute(async (trx) => {
      await updateSubscription(trx, row.id, { status: 'expired', nextTierId: null }, now);
      if (row.creator_id === null) await setPremiumFlag(trx, row.subscriber_id, now);
    });
    out.expired += 1;
    out.effects.entitlements.push({ userId: row.subscriber_id, creatorId: row.creator_id, active: false });
  }

  // 3. renewal reminders for annual subscriptions
  const remind = await db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.id', 's.current_period_end'])
    .where('s.status', '=', 'active')
    .where('s.cancel_at_period_end', '=', false)
    .where('t.payment_interval', '=', 'annually')
    .where('t.creator_id', 'is not', null)
    .where('s.current_period_end', '>', now)
    .where('s.current_period_end', '<=', new Date(now.getTime() + REMINDER_DAYS * DAY_MS))
    .where(sql<boolean>`s.reminded_period_end is distinct from s.current_period_end`)
    .limit(BATCH)
    .execute();
  for (const row of remind) {
    await updateSubscription(db, row.id, { remindedPeriodEnd: row.current_period_end }, now);
    out.reminders.push({ subscriptionId: row.id, periodEnd: row.current_period_end });
  }
  return out;
}

/**
 * One renewal in its own transaction: the payment to send a receipt for, the `failed` row of a
 * charge that first failed this period (the fan is mailed), 'past-due' (failed again), or null.
 */
async function renewOne(db: DB, provider: PaymentProvider, id: string, now: Date): Promise<{ paymentId: string } | { failedPaymentId: string } | 'past-due' | null> {
  return db.transaction().execute(async (trx) => {
    const sub = await trx
      .selectFrom('subscriptions')
      .select(['id', 'subscriber_id', 'tier_id', 'next_tier_id', 'current_period_end', 'past_due_since', 'status', 'cancel_at_period_end'])
      .where('id', '=', id)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!sub || sub.status !== 'active' || sub.cancel_at_period_end) return null;
    if (sub.current_period_end.getTime() > now.getTime() + RENEW_AHEAD_MS) return null;
    const tier = await findTierForBilling(trx, sub.next_tier_id ?? sub.tier_id);
    if (!tier) return null;
    const amount = discountedPrice(tier.price, tier.discount_percentage);
    const description = paymentDescription(tier);
    // one key per subscription and period: a second run for the same period is refused by the unique index
    const key = `renewal-${sub.id}-${sub.current_period_end.getTime()}`;
    const charge = await provider.charge({ userId: sub.subscriber_id, amount, description, idempotencyKey: key });
    if (!charge.ok) {
      if (sub.past_due_since) return 'past-due';
      await updateSubscription(trx, sub.id, { pastDueSince: now, graceUntil: new Date(sub.current_period_end.getTime() + GRACE_DAYS * DAY_MS) }, now);
      const failedPaymentId = await insertPayment(trx, {
        userId: sub.subscriber_id, tierId: tier.id, creatorId: tier.creator_id, subscriptionId: sub.id, description,
        idempotencyKey: `failed-${key}`, amount, provider: provider.name, providerRef: null, status: 'failed', createdAt: now,
      });
      return { failedPaymentId };
    }
    const start = sub.current_period_end;
    await updateSubscription(
      trx,
      sub.id,
      { tierId: tier.id, nextTierId: null, periodStart: start, periodEnd: periodEndFor(start, tier), pastDueSince: null, graceUntil: null },
      now,
    );
    const paymentId = await insertPayment(trx, {
      userId: sub.subscriber_id, tierId: tier.id, creatorId: tier.creator_id, subscriptionId: sub.id, description,
      idempotencyKey: key, amount, provider: provider.name, providerRef: charge.ref, status: 'succeeded', createdAt: now,
    });
    return { paymentId };
  });
}
