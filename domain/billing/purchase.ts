import type { SubscribeResultDto } from '../../common/billing-dtos';
import { discountedPrice } from '../../common/discounted-price';
import { BUNDLE_TEXTS } from '../../common/bundle-texts';
import type { BundlePeriods } from '../../common/bundle-schemas';
import { formatCents } from '../../common/money';
import { BILLING_TEXTS } from '../../common/texts';
import type { DB } from '../../core/db/kysely';
import { recordSubscription, updateSubscription } from '../subscriptions/write';
import {
  creatorUnavailable,
  findActiveSubscriptionToCreator,
  findPaymentByKey,
  findTierForBilling,
  insertPayment,
  keyPendingAtProvider,
  lockPair,
  setPremiumFlag,
  type BillingTier,
} from './billing.queries';
import type { BillingDeps } from './billing-deps';
import { addChargeEffects, noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { bundlePrice, takesBundles } from './bundles';
import { findBundlePercent } from './bundles.queries';
import { firstPeriodPrice } from './offers.queries';
import { periodEndFor, PREMIUM_PERIOD_DAYS } from './periods';

/**
 * The ledger's words for a charge: 'Ava Stone — Gold', 'Ava Stone — Gold — 3 months' for a bundle
 * (the fan's history keeps it after deletions).
 */
export function paymentDescription(tier: Pick<BillingTier, 'name' | 'creator_display_name' | 'creator_id' | 'payment_interval'>, bundlePeriods?: number | null): string {
  const plan = bundlePeriods ? BUNDLE_TEXTS.planName(tier.name, bundlePeriods, tier.payment_interval) : tier.name;
  return tier.creator_id === null ? plan : `${tier.creator_display_name ?? 'Creator'} — ${plan}`;
}

export interface PurchaseRequest {
  userId: string;
  email: string;
  /** the buyer's username (Premium lands on their own profile) */
  username: string;
  tierId: string;
  idempotencyKey: string;
  /** 'creator': a creator's tier (/{username}/subscribe); 'premium': the platform's tier (payment screen) */
  kind: 'creator' | 'premium';
  /**
   * What the fan confirmed paying, in cents (issue 22 item 7): the API always sends it and a
   * different price is refused; absent only for callers on the server's side (seed, tests).
   */
  confirmedCents?: number;
  /**
   * The tier for this many periods at once at its bundle discount (issue 27 item 5): charged once,
   * the period that many periods long, renewed as the same bundle. Offers do not apply to it.
   */
  bundlePeriods?: BundlePeriods | null;
}

export type PurchaseOutcome = { result: SubscribeResultDto; effects: BillingEffects };

/**
 * Subscribing, the one path for a creator's tier and Premium alike (spec part 2 §4): one
 * transaction charges through the provider, writes the subscription (and the subscribers mirror)
 * and the payment, or writes nothing. Idempotent: the fan's key is unique on payments, and the
 * pair's advisory lock makes a repeated request wait and then answer what the first one did. A
 * fan already subscribed is told so; another tier of the same creator is a change at the period end.
 * With a checkout provider (Stripe) nothing is written here: the webhook does it (applyCheckout).
 */
export async function purchase(deps: BillingDeps, req: PurchaseRequest): Promise<PurchaseOutcome> {
  const notFound = req.kind === 'premium' ? BILLING_TEXTS.premiumTierMissing : BILLING_TEXTS.tierNotFound;
  const tier = await findTierForBilling(deps.db, req.tierId);
  if (!tier || tier.archived_at || (req.kind === 'premium') !== (tier.creator_id === null)) throw new BillingError('NOT_FOUND', notFound);
  if (tier.creator_id === req.userId) throw new BillingError('FORBIDDEN', BILLING_TEXTS.selfSubscribe);
  // a private or hidden creator is nobody's to find, by tier id either (domain/access)
  if (creatorUnavailable(tier)) throw new BillingError('NOT_FOUND', notFound);
  const bundlePeriods = req.bundlePeriods ?? null;
  if (bundlePeriods !== null && req.kind === 'premium') throw new BillingError('NOT_FOUND', BUNDLE_TEXTS.premiumNotAllowed);
  const bundlePercent = bundlePeriods === null || !takesBundles(tier) ? null : await findBundlePercent(deps.db, tier.id, bundlePeriods);
  if (bundlePeriods !== null && bundlePercent === null) throw new BillingError('NOT_FOUND', BUNDLE_TEXTS.notFound);
  // what the fan agrees to per period (per bundle: its total); the first period may cost less under
  // an offer (./offers.queries.ts), never a bundle (offers and bundles do not stack, docs/payments.md)
  const single = discountedPrice(tier.price_cents, tier.discount_percentage);
  const price = bundlePeriods === null ? single : bundlePrice(single, bundlePeriods, bundlePercent ?? 0).total;
  let amountCents = price;
  const description = paymentDescription(tier, bundlePeriods);
  // the price changed under the fan (or a tier change, which is charged this price at the renewal)
  const confirmed = () => {
    if (req.confirmedCents !== undefined && req.confirmedCents !== amountCents) throw new BillingError('CONFLICT', BILLING_TEXTS.priceChanged(formatCents(amountCents)));
  };

  // the fan's key already went on something else (a tip, an unlock, another tier): 409, nothing charged;
  // the same subscription again is answered below as the first one
  const spent = async (db: DB) => {
    const done = await findPaymentByKey(db, req.userId, req.idempotencyKey);
    if ((done && (done.purpose !== 'subscription' || done.tier_id !== tier.id || !done.subscription_id)) || (await keyPendingAtProvider(db, req.userId, req.idempotencyKey))) {
      throw new BillingError('CONFLICT', BILLING_TEXTS.requestKeyUsed);
    }
    return done;
  };

  if (deps.provider.flow === 'checkout') {
    await spent(deps.db);
    confirmed();
    const current = await findActiveSubscriptionToCreator(deps.db, req.userId, tier.creator_id, deps.clock.now());
    if (current) throw new BillingError('CONFLICT', req.kind === 'premium' ? BILLING_TEXTS.alreadyPremium : BILLING_TEXTS.alreadySubscribed);
    const back = req.kind === 'premium' ? `/${req.username}` : `/${tier.creator_username}`;
    const cancel = req.kind === 'premium' ? `/settings/account/payment?tier=${tier.id}&checkout=cancelled` : `/${tier.creator_username}/subscribe?checkout=cancelled`;
    const { url } = await deps.provider.createCheckout({
      userId: req.userId,
      email: req.email,
      tierId: tier.id,
      amountCents,
      interval: tier.payment_interval,
      ...(req.kind === 'premium' && { intervalDays: PREMIUM_PERIOD_DAYS }),
      ...(bundlePeriods !== null && { intervalCount: bundlePeriods }),
      description,
      idempotencyKey: req.idempotencyKey,
      successUrl: `${deps.appUrl}${back}?checkout=success`,
      cancelUrl: `${deps.appUrl}${cancel}`,
    });
    return { result: { kind: 'redirect', url }, effects: noEffects() };
  }

  return deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, req.userId, tier.creator_id);
    const now = deps.clock.now();
    const done = await spent(trx);
    if (done?.subscription_id && done.current_period_end) {
      // the same request again (double click, retry): the first one's answer, no second charge
      return { result: subscribedResult(tier, req, done.subscription_id, done.current_period_end), effects: noEffects() };
    }
    // an offer for new fans or expired subscribers (none applies to a fan subscribed now, nor to a bundle)
    if (tier.creator_id !== null && bundlePeriods === null) amountCents = (await firstPeriodPrice(trx, tier.creator_id, req.userId, tier.id, price, now)).amountCents;
    confirmed();
    const current = await findActiveSubscriptionToCreator(trx, req.userId, tier.creator_id, now);
    if (current) {
      if (req.kind === 'premium') throw new BillingError('CONFLICT', BILLING_TEXTS.alreadyPremium);
      if (current.tier_id === tier.id) throw new BillingError('CONFLICT', BILLING_TEXTS.alreadySubscribed);
      // a bundle starts a subscription; a fan who has one changes tier (or bundle) when it ends
      if (bundlePeriods !== null) throw new BillingError('CONFLICT', BUNDLE_TEXTS.alreadySubscribed);
      // another tier of the same creator: it replaces the current one when the paid period ends, at
      // the price the fan sees now (a later rise does not reach them, ./prices.ts)
      await updateSubscription(trx, current.id, { nextTierId: tier.id, nextPriceCents: price, cancelAtPeriodEnd: false }, now);
      return {
        result: { kind: 'tier-change-scheduled', creatorUsername: tier.creator_username ?? '', tierName: tier.name, effectiveAt: current.current_period_end },
        effects: noEffects(),
      };
    }
    const charge = await deps.provider.charge({ userId: req.userId, amountCents, description, idempotencyKey: req.idempotencyKey });
    if (!charge.ok) throw new BillingError('PAYMENT_FAILED', BILLING_TEXTS.subscribeFailed);
    const periodEnd = periodEndFor(now, tier, bundlePeriods);
    const subscriptionId = await recordSubscription(trx, {
      subscriberId: req.userId,
      tierId: tier.id,
      status: 'active',
      periodStart: now,
      periodEnd,
      // what the fan agreed to: renewals charge at most this (./prices.ts), never the offer's first-period price
      priceCents: price,
      bundlePeriods,
      provider: deps.provider.name,
      createdAt: now,
    });
    const paymentId = await insertPayment(trx, {
      userId: req.userId,
      tierId: tier.id,
      creatorId: tier.creator_id,
      subscriptionId,
      description,
      idempotencyKey: req.idempotencyKey,
      amountCents,
      provider: deps.provider.name,
      providerRef: charge.ref,
      status: 'succeeded',
      createdAt: now,
      earnings: deps.earnings,
    });
    if (tier.creator_id === null) await setPremiumFlag(trx, req.userId, now);
    return {
      result: subscribedResult(tier, req, subscriptionId, periodEnd),
      effects: { ...noEffects(), entitlements: [{ userId: req.userId, creatorId: tier.creator_id, active: true }], jobs: await addChargeEffects(trx, paymentId) },
    };
  });
}

function subscribedResult(tier: BillingTier, req: PurchaseRequest, subscriptionId: string, currentPeriodEnd: Date): SubscribeResultDto {
  return { kind: 'subscribed', creatorUsername: tier.creator_id === null ? req.username : (tier.creator_username ?? ''), subscriptionId, currentPeriodEnd };
}
