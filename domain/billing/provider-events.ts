import { discountedPrice } from '../../common/discounted-price';
import { isUuid } from '../../common/ids';
import { BILLING_TEXTS } from '../../common/texts';
import type { DB } from '../../core/db/kysely';
import type { CheckoutPaymentStatus, PaymentProvider, ProviderEvent } from '../../core/payments/provider';
import { recordPayoutAccountState } from '../earnings/payout-accounts';
import type { EarningsPolicy } from '../earnings/policy';
import { recordSubscription, updateSubscription } from '../subscriptions/write';
import { findActiveSubscriptionToCreator, findTierForBilling, insertPayment, lockPair, setPremiumFlag } from './billing.queries';
import type { Clock } from '../../core/clock';
import { pendingDuplicateCheckout, recordDuplicateCheckout } from './duplicate-checkout';
import { applyChargeEvent, chargeFacts, type ChargeEvent } from './provider-reversals';
import { addChargeEffects, addCheckoutFailedMail, addUndoDuplicateCheckout, noEffects, type BillingEffects } from './effects';
import { paymentDescription } from './purchase';
import { completePending } from './one-off';
import { recordSavedCard } from './cards';
import { DAY_MS, GRACE_DAYS, periodEndFor } from './periods';

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies one verified provider webhook event, once: its id goes into billing_events in the same
 * transaction as its effect, so a replayed or concurrently redelivered event finds the id taken
 * and changes nothing (the second insert waits for the first transaction, then conflicts).
 *   checkout-completed: once the money is in (payment_status 'paid', or 'no_payment_required' at a
 *     price of zero; an 'unpaid' one waits for Stripe's async_payment_succeeded, which comes here as
 *     checkout-completed again), the subscription starts (subscription + subscribers + payment, as
 *     subscribe). One Stripe already ended (its customer.subscription.deleted came first) is
 *     recorded as ended, with its payment, and grants nothing: the state is Stripe's, asked before
 *     the transaction, not the order the events arrived in;
 *   checkout-failed: an async payment that failed: nothing is written but the event, the fan is told;
 *     when the fan already subscribes to that creator (a second tab's checkout), its charge is
 *     recorded and the undo (cancel now, refund) left for after the commit (./duplicate-checkout.ts);
 *   invoice-paid: a renewal (the next period, a payment; the first invoice is the checkout's own); a
 *     subscription that ended here is active again only when Stripe says it has not ended;
 *   invoice-failed: past due, access until period end + GRACE_DAYS;
 *   subscription-ended: ends now (cancelled at Stripe, or unpaid);
 *   charge-refunded, dispute-opened, dispute-closed: reversal rows, and what they mean for access
 *     (./provider-reversals.ts, ./reversal-access.ts).
 */
export async function applyProviderEvent(
  deps: { db: DB; provider: PaymentProvider; clock: Clock; earnings: EarningsPolicy },
  event: ProviderEvent,
): Promise<{ outcome: EventOutcome; effects: BillingEffects }> {
  const now = deps.clock.now();
  // asked outside the transaction (a network call): whether Stripe already ended the subscription
  // this checkout started. An answer that changes in between is a customer.subscription.deleted,
  // which then finds the subscription and ends it.
  const endedAtProvider =
    event.kind === 'checkout-completed' && event.paymentStatus !== 'unpaid' && event.providerSubscriptionId && !(await seenBefore(deps, event.id))
      ? await deps.provider.subscriptionEnded(event.providerSubscriptionId)
      : false;
  // a refund or dispute: the charge's refunds as the provider lists them (the truth, whatever order
  // its events came in), read before the transaction too
  const facts = isChargeEvent(event) && !(await seenBefore(deps, event.id)) ? await chargeFacts(deps, event) : null;
  // a saved card: its brand and last four digits, asked of the provider before the transaction too
  const card = event.kind === 'card-saved' && !(await seenBefore(deps, event.id)) ? await deps.provider.cardOfSetup(event.setupIntentId) : null;
  return deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('billing_events')
      .values({ provider: deps.provider.name, event_id: event.id, type: event.kind === 'ignored' ? event.type : event.kind })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    const effects = noEffects();
    if (!fresh) {
      // seen before: nothing changes, but an undo that could not be queued then is handed back
      const pending = event.kind === 'checkout-completed' ? await pendingDuplicateCheckout(trx, event) : null;
      if (pending) effects.jobs.push(await addUndoDuplicateCheckout(trx, pending));
      return { outcome: 'duplicate' as const, effects };
    }
    switch (event.kind) {
      case 'ignored':
        return { outcome: 'ignored' as const, effects };
      case 'checkout-completed': {
        const tier = await findTierForBilling(trx, event.tierId);
        const user = await trx.selectFrom('users').select('id').where('id', '=', event.userId).executeTakeFirst();
        if (!tier || !user) {
          // paid for a tier or by a fan deleted meanwhile: the money is recorded and given back, the
          // provider's subscription cancelled (nothing more is charged for what no longer exists)
          if (event.paymentStatus !== 'paid') return { outcome: 'ignored' as const, effects };
          const charge = { tierId: tier?.id ?? null, creatorId: tier?.creator_id ?? null, description: tier ? paymentDescription(tier, event.bundlePeriods) : BILLING_TEXTS.planGone, amountCents: event.amountCents };
          const gone = { ...event, userId: user ? event.userId : null };
          effects.jobs.push(await addUndoDuplicateCheckout(trx, await recordDuplicateCheckout(trx, deps.provider, gone, charge, now, deps.earnings, { gone: true })));
          return { outcome: 'applied' as const, effects };
        }
        await lockPair(trx, event.userId, tier.creator_id);
        const price = discountedPrice(tier.price_cents, tier.discount_percentage);
        if (!paid(event.paymentStatus, event.amountCents, price)) return { outcome: 'ignored' as const, effects };
        const { amountCents } = event;
        const existing = await findActiveSubscriptionToCreator(trx, event.userId, tier.creator_id, now);
        if (existing) {
          // the same Stripe subscription again (a second event for one checkout): nothing to undo
          if (event.providerSubscriptionId && (await subscriptionByProviderId(trx, deps.provider.name, event.providerSubscriptionId))) {
            return { outcome: 'ignored' as const, effects };
          }
          // a second checkout (two tabs): the fan keeps the first; this one is cancelled and refunded
          const charge = { tierId: tier.id, creatorId: tier.creator_id, description: paymentDescription(tier, event.bundlePeriods), amountCents };
          effects.jobs.push(await addUndoDuplicateCheckout(trx, await recordDuplicateCheckout(trx, deps.provider, event, charge, now, deps.earnings)));
          return { outcome: 'applied' as const, effects };
        }
        const periodEnd = periodEndFor(now, tier, event.bundlePeriods);
        const subscriptionId = await recordSubscription(trx, {
          // 'canceled': ended early (active.ts), so no access whatever its period end says
          subscriberId: event.userId, tierId: tier.id, status: endedAtProvider ? 'canceled' : 'active', periodStart: now, periodEnd, priceCents: amountCents,
          bundlePeriods: event.bundlePeriods, provider: deps.provider.name, providerSubscriptionId: event.providerSubscriptionId, createdAt: now,
        });
        const paymentId = await insertPayment(trx, {
          userId: event.userId, tierId: tier.id, creatorId: tier.creator_id, subscriptionId, description: paymentDescription(tier, event.bundlePeriods),
          idempotencyKey: event.idempotencyKey, amountCents,
          provider: deps.provider.name, providerRef: event.paymentRef, status: 'succeeded', createdAt: now, earnings: deps.earnings,
        });
        effects.jobs.push(...(await addChargeEffects(trx, paymentId)));
        if (endedAtProvider) return { outcome: 'applied' as const, effects };
        if (tier.creator_id === null) await setPremiumFlag(trx, event.userId, now);
        effects.entitlements.push({ userId: event.userId, creatorId: tier.creator_id, active: true });
        return { outcome: 'applied' as const, effects };
      }
      case 'one-off-paid': {
        // a tip's or unlock's money is in: its pending charge is written once, whichever event came first
        if (event.paymentStatus !== 'paid') return { outcome: 'ignored' as const, effects };
        const done = await completePending(trx, deps, event.pendingId, { ref: event.paymentRef, amountCents: event.amountCents });
        if (!done || done.repeated) return { outcome: 'ignored' as const, effects };
        return { outcome: 'applied' as const, effects: done.effects };
      }
      case 'card-saved': {
        const user = await trx.selectFrom('users').select('id').where('id', '=', event.userId).executeTakeFirst();
        if (!user || !card) return { outcome: 'ignored' as const, effects };
        const replaced = await recordSavedCard(trx, event.userId, deps.provider.name, card, now);
        effects.detachCards = replaced ? [replaced] : [];
        return { outcome: 'applied' as const, effects };
      }
      case 'checkout-failed': {
        const tier = await findTierForBilling(trx, event.tierId);
        const user = await trx.selectFrom('users').select('id').where('id', '=', event.userId).executeTakeFirst();
        if (!tier || !user) return { outcome: 'ignored' as const, effects };
        effects.jobs.push(await addCheckoutFailedMail(trx, { userId: event.userId, tierId: tier.id, eventId: event.id }));
        return { outcome: 'applied' as const, effects };
      }
      case 'invoice-paid': {
        if (event.firstInvoice) return { outcome: 'ignored' as const, effects };
        const sub = await subscriptionByProviderId(trx, deps.provider.name, event.providerSubscriptionId);
        const tier = sub ? await findTierForBilling(trx, sub.tier_id) : undefined;
        if (!sub || !tier) {
          // a renewal Stripe charged for a subscription of ours deleted here meanwhile (its tier, fan
          // or creator went): recorded, refunded and the subscription cancelled at Stripe. One that
          // names no tier of ours (not made by this app) is left alone.
          if (!event.subscriber) return { outcome: 'ignored' as const, effects };
          const { userId, tierId } = event.subscriber;
          const fan = isUuid(userId) ? await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst() : undefined;
          // the tier may still be there (the fan's data was deleted, not the tier): its words in the history
          const plan = isUuid(tierId) ? await findTierForBilling(trx, tierId) : undefined;
          const gone = { id: event.id, userId: fan ? fan.id : null, providerSubscriptionId: event.providerSubscriptionId, paymentRef: event.paymentRef, amountCents: event.amountCents };
          const charge = { tierId: plan?.id ?? null, creatorId: plan?.creator_id ?? null, description: plan ? paymentDescription(plan) : BILLING_TEXTS.planGone, amountCents: event.amountCents };
          effects.jobs.push(await addUndoDuplicateCheckout(trx, await recordDuplicateCheckout(trx, deps.provider, gone, charge, now, deps.earnings, { gone: true })));
          return { outcome: 'applied' as const, effects };
        }
        // money for a subscription ended here (out of order, or expired while Stripe was late):
        // recorded, but access only when Stripe says the subscription still runs
        const reopen = sub.status !== 'active' && !(await deps.provider.subscriptionEnded(event.providerSubscriptionId));
        const start = sub.current_period_end;
        const end = event.periodEnd && event.periodEnd > start ? event.periodEnd : periodEndFor(start, tier, sub.bundle_periods);
        await updateSubscription(
          trx, sub.id,
          { ...((sub.status === 'active' || reopen) && { status: 'active' as const }), periodStart: start, periodEnd: end, pastDueSince: null, graceUntil: null },
          now,
        );
        const paymentId = await insertPayment(trx, {
          userId: sub.subscriber_id, tierId: tier.id, creatorId: tier.creator_id, subscriptionId: sub.id, description: paymentDescription(tier, sub.bundle_periods),
          idempotencyKey: null, amountCents: event.amountCents, provider: deps.provider.name, providerRef: event.paymentRef, status: 'succeeded', createdAt: now, earnings: deps.earnings,
        });
        effects.jobs.push(...(await addChargeEffects(trx, paymentId)));
        if (reopen) {
          if (tier.creator_id === null) await setPremiumFlag(trx, sub.subscriber_id, now);
          effects.entitlements.push({ userId: sub.subscriber_id, creatorId: tier.creator_id, active: true });
        }
        return { outcome: 'applied' as const, effects };
      }
      case 'invoice-failed': {
        const sub = await subscriptionByProviderId(trx, deps.provider.name, event.providerSubscriptionId);
        if (!sub || sub.past_due_since) return { outcome: 'ignored' as const, effects };
        await updateSubscription(trx, sub.id, { pastDueSince: now, graceUntil: new Date(sub.current_period_end.getTime() + GRACE_DAYS * DAY_MS) }, now);
        return { outcome: 'applied' as const, effects };
      }
      case 'charge-refunded':
      case 'dispute-opened':
      case 'dispute-closed': {
        // a redelivery racing the first delivery: the first one applies it
        if (!facts) return { outcome: 'ignored' as const, effects };
        return { outcome: await applyChargeEvent(trx, deps.provider.name, event, facts, effects, now), effects };
      }
      case 'payout-account-updated': {
        // a creator's Connect account: its state, and Identity verification once Stripe verified them
        const ours = await recordPayoutAccountState(trx, deps.provider.name, event.accountId, event.state, now);
        return { outcome: ours ? ('applied' as const) : ('ignored' as const), effects };
      }
      case 'subscription-ended': {
        const sub = await subscriptionByProviderId(trx, deps.provider.name, event.providerSubscriptionId);
        if (!sub || sub.status !== 'active') return { outcome: 'ignored' as const, effects };
        // 'canceled': ended early (active.ts), whatever its period end says
        await updateSubscription(trx, sub.id, { status: 'canceled', graceUntil: null, cancelAtPeriodEnd: true }, now);
        const tier = await trx.selectFrom('subscription_tiers').select('creator_id').where('id', '=', sub.tier_id).executeTakeFirst();
        if (tier && tier.creator_id === null) await setPremiumFlag(trx, sub.subscriber_id, now);
        effects.entitlements.push({ userId: sub.subscriber_id, creatorId: tier?.creator_id ?? null, active: false });
        return { outcome: 'applied' as const, effects };
      }
    }
  });
}

function isChargeEvent(event: ProviderEvent): event is Extract<ProviderEvent, ChargeEvent> {
  return event.kind === 'charge-refunded' || event.kind === 'dispute-opened' || event.kind === 'dispute-closed';
}

/** A redelivery: no need to ask the provider (the transaction still decides, under the row's lock). */
async function seenBefore(deps: { db: DB; provider: PaymentProvider }, eventId: string): Promise<boolean> {
  const row = await deps.db.selectFrom('billing_events').select('event_id').where('provider', '=', deps.provider.name).where('event_id', '=', eventId).executeTakeFirst();
  return Boolean(row);
}

/** Paid means paid: the money is in, or there was none to pay because the price is zero. */
function paid(status: CheckoutPaymentStatus, amountCents: number, priceCents: number): boolean {
  if (status === 'paid') return true;
  return status === 'no_payment_required' && amountCents === 0 && priceCents === 0;
}

async function subscriptionByProviderId(db: DB, provider: string, providerSubscriptionId: string) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'subscriber_id', 'tier_id', 'status', 'current_period_end', 'past_due_since', 'bundle_periods'])
    .where('provider', '=', provider)
    .where('provider_subscription_id', '=', providerSubscriptionId)
    .forUpdate()
    .executeTakeFirst();
}
