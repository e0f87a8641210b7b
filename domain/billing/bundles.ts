import { discountedPrice } from '../../common/discounted-price';
import type { BundleOfferDto } from '../../common/bundle-schemas';
import type { PaymentInterval } from '../../common/enums';
import { fromCents, moneyOfCents, multiplyMoney, percentOff, subtractMoney } from '../../common/money';
import type { TierBundleRow } from './bundles.queries';

export interface BundlePrice {
  /** what the fan pays for all the periods at once, in cents: 10800 */
  total: number;
  /** what that saves against paying each period, in cents: 1200 */
  saving: number;
}

/**
 * A bundle's price (issue 27 item 5): `periods` times the per-period price, in integer cents, at
 * `percent` off by the one percent-off rule (common/money.ts: the total is rounded half up to the
 * cent); the saving is the rest, so total and saving always add up to the periods' full price.
 */
export function bundlePrice(perPeriodCents: number, periods: number, percent: number): BundlePrice {
  const full = multiplyMoney(moneyOfCents(perPeriodCents), periods);
  const total = percentOff(full, percent);
  return { total: total.cents, saving: subtractMoney(full, total).cents };
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
  tiers: readonly { id: string; price_cents: number; discount_percentage: number | null; payment_interval: PaymentInterval }[],
  rows: readonly TierBundleRow[],
): Map<string, BundleOfferDto[]> {
  const byTier = new Map<string, BundleOfferDto[]>();
  for (const tier of tiers) {
    if (!takesBundles(tier)) continue;
    const single = discountedPrice(tier.price_cents, tier.discount_percentage);
    const list = rows
      .filter((r) => r.tier_id === tier.id)
      .map((r) => {
        const { total, saving } = bundlePrice(single, r.periods, r.percent);
        return { periods: r.periods, percent: r.percent, total: fromCents(total), saving: fromCents(saving) };
      });
    if (list.length > 0) byTier.set(tier.id, list);
  }
  return byTier;
}
