import type { PaymentProviderName, PublicTierDto } from '../../../common/billing-dtos';
import { periodEnd } from '../../../common/billing-periods';
import type { BundlePeriods } from '../../../common/bundle-schemas';
import { intervalUnit } from '../../lib/tier-price';

/**
 * What the fan is asked to confirm before any charge (issue 22 item 7), built from what the page
 * already shows: the one shape every purchase takes (a creator's tier, Premium; an unlock or a tip
 * later, with `renewal: null`), read by the one dialog (./purchase-dialog.tsx) and paid through
 * the one hook (./use-purchase.ts).
 */

/** What is bought: which procedure charges it. */
export type PurchaseItem =
  /** `bundlePeriods`: the tier for that many periods at once (issue 27 item 5) */
  | { kind: 'creator'; tierId: string; creatorId: string; bundlePeriods?: BundlePeriods | null }
  | { kind: 'premium'; tierId: string }
  | { kind: 'message'; messageId: string }
  | { kind: 'post'; postId: string; creatorId: string }
  /** a free trial link (issue 27 item 5): nothing now, the tier's price from the trial's end; `toast` says it started */
  | { kind: 'trial'; tierId: string; creatorId: string; code: string; toast: string };

export interface PurchaseOffer {
  item: PurchaseItem;
  /** the dialog's heading: 'Subscribe to Maya Chen' */
  title: string;
  /** the plan by name: 'Weekly Pass' */
  planName: string;
  /** charged when the fan presses Pay, rand as the server writes it: '40.00' ('0.00': nothing now) */
  amountNow: string;
  /** the price the fan agrees to; the server refuses the purchase when it differs (the price changed) */
  confirmedAmount: string;
  /** how a subscription renews: each renewal's amount, how often, and the first renewal; null for a one-off purchase */
  renewal: { amount: string; every: string; firstAt: Date } | null;
  /** a tier change starts at the end of the period already paid for, not now */
  startsAt: Date | null;
  provider: PaymentProviderName | null;
  /** the confirming button's words when they are not 'Pay R…' / 'Confirm switch' (a free trial) */
  confirmLabel?: string;
}

/** A creator's tier: charged now and every interval, the first renewal one period from now. */
export function tierOffer(
  tier: Pick<PublicTierDto, 'id' | 'name' | 'paymentInterval' | 'discountedPrice' | 'offer'>,
  creator: { id: string; name: string },
  opts: {
    now: Date;
    provider: PaymentProviderName | null;
    currentPeriodEnd?: Date | null;
  },
): PurchaseOffer {
  const change = opts.currentPeriodEnd ?? null;
  const start = change ?? opts.now;
  return {
    item: { kind: 'creator', tierId: tier.id, creatorId: creator.id },
    title: change ? `Switch to ${tier.name}` : `Subscribe to ${creator.name}`,
    planName: tier.name,
    // an offer (issue 27 item 5) lowers the first period only; a tier change never gets one
    amountNow: change ? '0.00' : (tier.offer?.price ?? tier.discountedPrice),
    confirmedAmount: change ? tier.discountedPrice : (tier.offer?.price ?? tier.discountedPrice),
    renewal: {
      amount: tier.discountedPrice,
      every: intervalUnit(tier.paymentInterval),
      firstAt: change ?? periodEnd(start, tier.paymentInterval),
    },
    startsAt: change,
    provider: opts.provider,
  };
}

/** The platform's Premium: charged now and every `periodDays` days. */
export function premiumOffer(
  plan: {
    id: string;
    name: string;
    discountedPrice: string;
    periodDays: number;
  },
  opts: { now: Date; provider: PaymentProviderName | null },
): PurchaseOffer {
  return {
    item: { kind: 'premium', tierId: plan.id },
    title: `Subscribe to ${plan.name}`,
    planName: plan.name,
    amountNow: plan.discountedPrice,
    confirmedAmount: plan.discountedPrice,
    renewal: {
      amount: plan.discountedPrice,
      every: `${plan.periodDays} days`,
      firstAt: new Date(opts.now.getTime() + plan.periodDays * 24 * 60 * 60_000),
    },
    startsAt: null,
    provider: opts.provider,
  };
}

/** A pay-per-view message's file (issue 27 item 3): a one-off charge of its price. */
export function messageUnlockOffer(message: { id: string; price: string }, opts: { title: string; planName: string; provider: PaymentProviderName | null }): PurchaseOffer {
  return {
    item: { kind: 'message', messageId: message.id },
    title: opts.title,
    planName: opts.planName,
    amountNow: message.price,
    confirmedAmount: message.price,
    renewal: null,
    startsAt: null,
    provider: opts.provider,
  };
}

/** A pay-per-view post: its price, charged once now, never renewed (issue 27 item 2). */
export function unlockOffer(
  post: { id: string; title: string; creatorId: string; price: string },
  opts: { provider: PaymentProviderName | null },
): PurchaseOffer {
  return {
    item: { kind: 'post', postId: post.id, creatorId: post.creatorId },
    title: `Unlock ${post.title}`,
    planName: 'Pay-per-view post',
    amountNow: post.price,
    confirmedAmount: post.price,
    renewal: null,
    startsAt: null,
    provider: opts.provider,
  };
}

/** A free trial: nothing now; the tier's price from the trial's end, then every interval (the renewal job converts it). */
export function trialOffer(
  trial: { code: string; days: number; tier: Pick<PublicTierDto, 'id' | 'name' | 'paymentInterval' | 'discountedPrice'> },
  creator: { id: string; name: string },
  opts: { now: Date; provider: PaymentProviderName | null; toast: string },
): PurchaseOffer {
  const end = new Date(opts.now.getTime() + trial.days * 24 * 60 * 60_000);
  return {
    item: { kind: 'trial', tierId: trial.tier.id, creatorId: creator.id, code: trial.code, toast: opts.toast },
    title: `Start your free trial of ${creator.name}`,
    planName: `${trial.tier.name} · ${trial.days} days free`,
    amountNow: '0.00',
    confirmedAmount: trial.tier.discountedPrice,
    renewal: { amount: trial.tier.discountedPrice, every: intervalUnit(trial.tier.paymentInterval), firstAt: end },
    startsAt: end,
    provider: opts.provider,
    confirmLabel: 'Start free trial',
  };
}
