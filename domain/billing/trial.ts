import { discountedPrice } from '../../common/discounted-price';
import { formatCents, fromCents } from '../../common/money';
import type { ClaimTrialResultDto, TrialOfferDto } from '../../common/trial-schemas';
import { TRIAL_TEXTS } from '../../common/trial-texts';
import { recordSubscription } from '../subscriptions/write';
import { creatorUnavailable, findActiveSubscriptionToCreator, lockPair } from './billing.queries';
import { noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { DAY_MS } from './periods';
import type { BillingDeps } from './billing-deps';
import { findTrialClaim, findTrialLinkByCode, insertTrialClaim, takeTrialClaim, type TrialLinkRow } from './trial.queries';

export interface ClaimTrialRequest {
  userId: string;
  code: string;
  /** the price after the trial the fan saw and agreed to, in cents: must be the tier's price now */
  confirmedCents: number;
}

export type ClaimTrialOutcome = { result: ClaimTrialResultDto; effects: BillingEffects; repeated: boolean };

/** A link nobody can claim any more (or never could), whoever asks. */
function closedState(link: TrialLinkRow, now: Date): 'expired' | 'disabled' | 'full' | null {
  if (link.disabled_at || link.archived_at) return 'disabled';
  if (link.expires_at.getTime() <= now.getTime()) return 'expired';
  if (link.claims >= link.max_claims) return 'full';
  return null;
}

const visibleLink = (link: TrialLinkRow | undefined, viewerId: string | null): link is TrialLinkRow =>
  // a private, hidden or suspended creator's link is nobody's to find but theirs (domain/access)
  link !== undefined && (link.creator_id === viewerId || !creatorUnavailable(link));

/** What /trial/{code} shows this viewer: the creator, the tier, the free days, and whether they can claim it. */
export async function viewTrial(deps: Pick<BillingDeps, 'db' | 'clock' | 'provider'>, viewerId: string | null, code: string): Promise<TrialOfferDto> {
  const link = await findTrialLinkByCode(deps.db, code);
  if (!visibleLink(link, viewerId)) throw new BillingError('NOT_FOUND', TRIAL_TEXTS.notFound);
  const now = deps.clock.now();
  let state: TrialOfferDto['state'] = closedState(link, now) ?? 'available';
  if (viewerId === link.creator_id) state = 'own';
  else if (viewerId && state === 'available') {
    const [claim, current] = await Promise.all([
      findTrialClaim(deps.db, link.creator_id, viewerId),
      findActiveSubscriptionToCreator(deps.db, viewerId, link.creator_id, now),
    ]);
    if (claim) state = claim.trial_link_id === link.id ? 'claimed' : 'used';
    else if (current) state = 'subscribed';
  }
  return {
    code: link.code,
    creator: { id: link.creator_id, username: link.creator_username, displayName: link.creator_display_name, avatarUrl: link.creator_avatar_url },
    tier: {
      id: link.tier_id,
      name: link.tier_name,
      description: link.tier_description,
      paymentInterval: link.payment_interval,
      discountedPrice: fromCents(discountedPrice(link.price_cents, link.discount_percentage)),
    },
    days: link.days,
    expiresAt: link.expires_at,
    state,
    claimsLeft: Math.max(0, link.max_claims - link.claims),
    provider: deps.provider.name,
  };
}

/**
 * Claiming a free trial (issue 27 item 5): premium access to the link's tier for its days, with no
 * charge. It is an ordinary subscription whose first period is free: `price` is what the fan
 * agreed to pay after it (the tier's price they confirmed), `trial_ends_at` its first period end,
 * so the renewal job (./maintenance.ts) converts it at its end with one charge keyed by
 * (subscription, period end) unless the fan cancelled, and reminds them before (the
 * renewal-reminder mail). Under the (fan, creator) lock, in one transaction: the claim counted on
 * the link (a conditional update: never past max_claims, whatever runs in parallel), the
 * subscription and its `subscribers` row, and the (creator, fan) claim row, unique, so a fan gets
 * one trial per creator. The same fan claiming the same link again gets the first answer.
 */
export async function claimTrial(deps: BillingDeps, req: ClaimTrialRequest): Promise<ClaimTrialOutcome> {
  const link = await findTrialLinkByCode(deps.db, req.code);
  if (!visibleLink(link, req.userId)) throw new BillingError('NOT_FOUND', TRIAL_TEXTS.notFound);
  if (link.creator_id === req.userId) throw new BillingError('FORBIDDEN', TRIAL_TEXTS.selfClaim);
  // converting needs a card on file with Stripe (issue 27 item 6); refused rather than half done
  if (deps.provider.flow === 'checkout') throw new BillingError('PAYMENT_FAILED', TRIAL_TEXTS.stripeNotYet);
  const price = discountedPrice(link.price_cents, link.discount_percentage);

  return deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, req.userId, link.creator_id);
    const now = deps.clock.now();
    const claim = await findTrialClaim(trx, link.creator_id, req.userId);
    if (claim) {
      // the same claim again (a double press, a retry): the first one's answer
      if (claim.trial_link_id === link.id && claim.subscription_id && claim.trial_ends_at) {
        const result = { subscriptionId: claim.subscription_id, creatorUsername: link.creator_username, trialEndsAt: claim.trial_ends_at };
        return { result, effects: noEffects(), repeated: true };
      }
      throw new BillingError('CONFLICT', TRIAL_TEXTS.alreadyUsed);
    }
    const closed = closedState(link, now);
    if (closed) throw new BillingError('CONFLICT', TRIAL_TEXTS[closed]);
    if (req.confirmedCents !== price) throw new BillingError('CONFLICT', TRIAL_TEXTS.priceChanged(formatCents(price)));
    if (await findActiveSubscriptionToCreator(trx, req.userId, link.creator_id, now)) throw new BillingError('CONFLICT', TRIAL_TEXTS.alreadySubscribed);
    if (!(await takeTrialClaim(trx, link.id, now))) {
      // another fan took the last claim, or the creator disabled it, since the read above
      throw new BillingError('CONFLICT', TRIAL_TEXTS.full);
    }
    const trialEndsAt = new Date(now.getTime() + link.days * DAY_MS);
    const subscriptionId = await recordSubscription(trx, {
      subscriberId: req.userId,
      tierId: link.tier_id,
      status: 'active',
      periodStart: now,
      periodEnd: trialEndsAt,
      priceCents: price,
      provider: deps.provider.name,
      trialEndsAt,
      createdAt: now,
    });
    await insertTrialClaim(trx, { linkId: link.id, creatorId: link.creator_id, fanId: req.userId, subscriptionId, at: now });
    return {
      result: { subscriptionId, creatorUsername: link.creator_username, trialEndsAt },
      effects: { ...noEffects(), entitlements: [{ userId: req.userId, creatorId: link.creator_id, active: true }] },
      repeated: false,
    };
  });
}
