import { discountedPrice } from '../../common/discounted-price';
import type { PaymentInterval } from '../../common/enums';
import { formatRand } from '../../common/format';
import { formatCents, toCents } from '../../common/money';

/**
 * How a tier's price reads on the subscribe page, the tier manager and the payment screen (spec
 * part 2 §2, §9): the interval as a unit ('R50.00 / week') and a discount as the struck-through
 * price beside the discounted one, rounded to 2 decimals, with '(N% off)'. Shared by the
 * subscriptions and creator features (features never import each other).
 */

const INTERVAL_UNIT: Record<PaymentInterval, string> = { weekly: 'week', monthly: 'month', annually: 'year' };
const INTERVAL_ADVERB: Record<PaymentInterval, string> = { weekly: 'Weekly', monthly: 'Monthly', annually: 'Annually' };

/** 'week', 'month', 'year' */
export function intervalUnit(interval: PaymentInterval): string {
  return INTERVAL_UNIT[interval];
}

/** 'Weekly', 'Monthly', 'Annually': the form's choices */
export function intervalLabel(interval: PaymentInterval): string {
  return INTERVAL_ADVERB[interval];
}

export interface TierPriceView {
  /** what a fan pays per interval, 'R40.00' */
  now: string;
  /** the struck-through list price when a discount applies, 'R50.00'; null without one */
  was: string | null;
  /** '(20% off)' or null */
  off: string | null;
  /** '/ week' */
  per: string;
}

export function tierPriceView(tier: { price: string | number; paymentInterval: PaymentInterval; discountPercentage?: number | null }): TierPriceView {
  const percent = tier.discountPercentage ?? 0;
  const discounted = percent > 0;
  return {
    // the one discount rule (common/billing-schemas.ts), as the server charges it
    now: formatCents(discountedPrice(toCents(String(tier.price)), percent)),
    was: discounted ? formatRand(tier.price) : null,
    off: discounted ? `(${percent}% off)` : null,
    per: `/ ${intervalUnit(tier.paymentInterval)}`,
  };
}
