import { discountedPrice } from '../../common/discounted-price';
import type { BundleOfferDto } from '../../common/bundle-schemas';
import type { PaymentInterval } from '../../common/enums';
import { moneyOfRand, multiplyMoney, percentOff, randOf, subtractMoney } from '../../common/money';
import type { TierBundleRow } from './bundles.queries';

export interface BundlePrice {
  /** what the fan pays for all the periods at once: '108.00' */
  total: string;
  /** what that saves against paying each period: '12.00' */
  saving: string;
}

/**
 * A bundle's price (issue 27 item 5): `periods` times the per-period price, in integer cents, at
 * `percent` off by the one percent-off rule (common/money.ts: the total is rounded half up to the
 * cent); the saving is the rest, so total and saving always add up to the periods' full price.
 */
export function bundlePrice(perPeriod: string, periods: number, percent: number): BundlePrice {
  const full = multiplyMoney(moneyOfRand(perPeriod), periods);
  const total = percentOff(full, percent);
  return { total: randOf(total), saving: randOf(subtractMoney(full, total)) };
}

/**
 * Bundles are for weekly and monthly tiers: a year is already a long commitment, and Stripe bills
 * at most every 3 years (its recurring interval_count). A bundle left on a tier made annual later
 * is neither shown nor sold.
 */
export function takesBundles(tier: { payment_interval: PaymentInterval }): boolean {
  return tier.payment_interval !== 'annually';
}

/** The page's tiers' bundles as a fan sees them (tier id -> shortest first), from one statement's rows. */
export function bundleOffersByTier(
  tiers: readonly { id: string; price: string; discount_percentage: number | null; payment_interval: PaymentInterval }[],
  rows: readonly TierBundleRow[],
): Map<string, BundleOfferDto[]> {
  const byTier = new Map<string, BundleOfferDto[]>();
  for (const tier of tiers) {
    if (!takesBundles(tier)) continue;
    const single = discountedPrice(tier.price, tier.discount_percentage);
    const list = rows.filter((r) => r.tier_id === tier.id).map((r) => ({ periods: r.periods, percent: r.percent, ...bundlePrice(single, r.periods, r.percent) }));
    if (list.length > 0) byTier.set(tier.id, list);
  }
  return byTier;
}
