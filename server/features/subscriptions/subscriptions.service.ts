import { TRPCError } from '@trpc/server';
import type {
  MySubscriptionDto,
  PremiumResultDto,
  PremiumTierDto,
  ProviderDto,
  PublicTierDto,
  SubscribePageDto,
  SubscribeResultDto,
} from '../../../common/billing-dtos';
import { discountedPrice } from '../../../common/discounted-price';
import type { PremiumTierInput, SubscribeInput, UpgradePremiumInput } from '../../../common/billing-schemas';
import { MEDIA_KINDS } from '../../../common/enums';
import { fromCents, toCents } from '../../../common/money';
import { BILLING_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import type { Realtime } from '../../../core/realtime/realtime';
import { isOwnerOnlyProfile } from '../../../domain/access/access';
import { findActiveSubscriptionToCreator } from '../../../domain/billing/billing.queries';
import { applyBillingEffects, noEffects } from '../../../domain/billing/effects';
import { setCancelAtPeriodEnd } from '../../../domain/billing/lifecycle';
import type { BillingDeps } from '../../../domain/billing/billing-deps';
import { purchase, type PurchaseRequest } from '../../../domain/billing/purchase';
import { PREMIUM_PERIOD_DAYS } from '../../../domain/billing/periods';
import { offerPrice, renewalPrice } from '../../../domain/billing/prices';
import { bestOffers } from '../../../domain/billing/offers.queries';
import { findBundles } from '../../../domain/billing/bundles.queries';
import { bundleOffersByTier } from '../../../domain/billing/bundles';
import { earningsPolicy } from '../../../domain/earnings/policy';
import type { SessionUser } from '../../../core/sessions/resolved-session';
import { paymentFailed } from '../../trpc/errors';
import {
  countPremiumPostsByKind,
  findCreatorByUsername,
  findLiveTiers,
  findMySubscriptions,
  findPlatformTier,
  type MySubscriptionRow,
} from './subscriptions.queries';

type Deps = Pick<AppDeps, 'db' | 'config' | 'queues' | 'log' | 'payments' | 'clock'> & { realtime: Realtime };

export function billingDeps(deps: Deps): BillingDeps {
  return { db: deps.db, provider: deps.payments, clock: deps.clock, appUrl: deps.config.appUrl, earnings: earningsPolicy(deps.config) };
}

type LiveTier = { id: string; name: string; description: string | null; price_cents: number; payment_interval: PublicTierDto['paymentInterval']; discount_percentage: number | null };

const publicTier = (t: LiveTier): PublicTierDto => ({
  id: t.id,
  name: t.name,
  description: t.description,
  price: fromCents(t.price_cents),
  paymentInterval: t.payment_interval,
  discountPercentage: t.discount_percentage,
  discountedPrice: fromCents(discountedPrice(t.price_cents, t.discount_percentage)),
});

/** /{username}/subscribe: the creator, live tiers, what a subscription unlocks, and the viewer's state. */
export async function subscribePage(deps: Deps, viewerId: string | null, username: string): Promise<SubscribePageDto> {
  const creator = await findCreatorByUsername(deps.db, username);
  const hidden = creator && creator.id !== viewerId && isOwnerOnlyProfile(creator.profile_visibility);
  if (!creator || !creator.is_creator || hidden) throw new TRPCError({ code: 'NOT_FOUND', message: PROFILE_TEXTS.creatorNotFound });
  const [tiers, counts, current] = await Promise.all([
    findLiveTiers(deps.db, creator.id),
    countPremiumPostsByKind(deps.db, creator.id),
    viewerId ? findActiveSubscriptionToCreator(deps.db, viewerId, creator.id, deps.clock.now()) : undefined,
  ]);
  // offers are charged by the built-in provider only for now: Stripe's Checkout prices every period alike
  const offers = deps.payments.flow === 'direct' ? await bestOffers(deps.db, creator.id, viewerId === creator.id ? null : viewerId, tiers.map((t) => t.id), deps.clock.now()) : new Map();
  const bundles = bundleOffersByTier(tiers, await findBundles(deps.db, { tierIds: tiers.map((t) => t.id) }));
  const premiumCounts = { ...Object.fromEntries(MEDIA_KINDS.map((k) => [k, 0])), total: 0 } as SubscribePageDto['premiumCounts'];
  for (const row of counts) {
    if (row.media_kind) premiumCounts[row.media_kind] = Number(row.n);
    premiumCounts.total += Number(row.n);
  }
  return {
    creator: { id: creator.id, username: creator.username, displayName: creator.display_name, avatarUrl: creator.avatar_url, isVerified: creator.verified_badge },
    tiers: tiers.map((t) => {
      const offer = offers.get(t.id);
      const base = { ...publicTier(t), ...(bundles.has(t.id) && { bundles: bundles.get(t.id) }) };
      if (!offer) return base;
      const price = fromCents(offerPrice(discountedPrice(t.price_cents, t.discount_percentage), offer.percent));
      return { ...base, offer: { percent: offer.percent, price, audience: offer.audience, endsAt: offer.endsAt } };
    }),
    premiumCounts,
    viewer: {
      signedIn: viewerId !== null,
      isOwner: viewerId === creator.id,
      subscription: current
        ? { id: current.id, tierId: current.tier_id, tierName: current.tier_name, currentPeriodEnd: current.current_period_end, cancelAtPeriodEnd: current.cancel_at_period_end }
        : null,
    },
    provider: deps.payments.name,
  };
}

/** Rule refusals keep their words; anything else is the spec's general failure (and is logged). */
async function billingCall<T>(deps: Deps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    paymentFailed(deps.log, error, { message: BILLING_TEXTS.subscribeFailed, logged: 'subscription failed' });
  }
}

async function buy(deps: Deps, user: SessionUser, req: Omit<PurchaseRequest, 'userId' | 'email' | 'username'>) {
  return billingCall(deps, async () => {
    const { result, effects } = await purchase(billingDeps(deps), { ...req, userId: user.id, email: user.email, username: user.username });
    await applyBillingEffects(deps, effects);
    return result;
  });
}

export function subscribe(deps: Deps, user: SessionUser, input: SubscribeInput): Promise<SubscribeResultDto> {
  return buy(deps, user, { tierId: input.tierId, idempotencyKey: input.idempotencyKey, confirmedCents: toCents(input.confirmedAmount), bundlePeriods: input.bundlePeriods, kind: 'creator' });
}

export async function upgradePremium(deps: Deps, user: SessionUser, input: UpgradePremiumInput): Promise<PremiumResultDto> {
  const result = await buy(deps, user, { tierId: input.tierId, idempotencyKey: input.idempotencyKey, confirmedCents: toCents(input.confirmedAmount), kind: 'premium' });
  if (result.kind === 'redirect') return result;
  if (result.kind !== 'subscribed') throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: BILLING_TEXTS.subscribeFailed });
  return { kind: 'subscribed', username: user.username, currentPeriodEnd: result.currentPeriodEnd };
}

/** The payment screen's plan (?tier=...): the platform's tier only. */
export async function premiumTier(deps: Pick<AppDeps, 'db'>, input: PremiumTierInput): Promise<PremiumTierDto> {
  const tier = await findPlatformTier(deps.db, input.tierId ?? null);
  if (!tier) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.premiumTierMissing });
  return { ...publicTier(tier), periodDays: PREMIUM_PERIOD_DAYS };
}

function mine(row: MySubscriptionRow): MySubscriptionDto {
  const status: MySubscriptionDto['status'] = !row.is_active
    ? 'ended'
    : row.past_due_since
      ? 'past_due'
      : row.cancel_at_period_end
        ? 'canceling'
        : 'active';
  return {
    id: row.id,
    creator: row.creator_id ? { id: row.creator_id, username: row.username ?? '', displayName: row.display_name ?? '', avatarUrl: row.avatar_url } : null,
    tier: {
      id: row.tier_id,
      name: row.tier_name,
      price: fromCents(row.price_cents),
      paymentInterval: row.payment_interval,
      // what this fan pays each period (a bundle: each bundle): the price they agreed to, or the tier's lower one of today
      discountedPrice: fromCents(renewalPrice(row.agreed_price_cents, row, { periods: row.bundle_periods, percent: row.bundle_percent })),
      archived: row.archived_at !== null,
    },
    status,
    currentPeriodEnd: row.current_period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    graceUntil: row.grace_until,
    // still in its free trial: the period that ends now is the trial (domain/billing/trial.ts)
    trialEndsAt: row.trial_ends_at && row.trial_ends_at.getTime() === row.current_period_end.getTime() ? row.trial_ends_at : null,
    nextTier: row.next_tier_id ? { id: row.next_tier_id, name: row.next_tier_name ?? '' } : null,
    bundlePeriods: row.bundle_periods,
  };
}

export async function mySubscriptions(deps: Pick<AppDeps, 'db'>, userId: string): Promise<MySubscriptionDto[]> {
  return (await findMySubscriptions(deps.db, userId)).map(mine);
}

/** Cancel (keeps access to the period end) or resume; only the caller's own active subscription. */
export async function setCancel(deps: Deps, userId: string, subscriptionId: string, cancel: boolean): Promise<MySubscriptionDto> {
  const jobs = await billingCall(deps, () => setCancelAtPeriodEnd(billingDeps(deps), userId, subscriptionId, cancel));
  await applyBillingEffects(deps, { ...noEffects(), jobs });
  const [row] = await findMySubscriptions(deps.db, userId, { id: subscriptionId });
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: BILLING_TEXTS.subscriptionNotFound });
  return mine(row);
}

export function providerInfo(deps: Pick<AppDeps, 'payments'>): ProviderDto {
  return { provider: deps.payments.name, label: deps.payments.isTest ? BILLING_TEXTS.builtinProviderLabel : BILLING_TEXTS.stripeProviderLabel };
}
