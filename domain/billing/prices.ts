import { discountedPrice } from '../../common/discounted-price';
import { moneyOfCents, percentOff } from '../../common/money';
import { bundlePrice } from './bundles';

/**
 * What a renewal charges, in cents (issue 22, docs/payments.md): the price the fan agreed to, or
 * the tier's discounted price of today when that is lower. A price cut reaches existing fans at
 * their next renewal (and becomes what they agreed to); a rise reaches new fans only. `agreed`
 * null: nothing was agreed (never for a subscription written since the price was stored), today's price.
 * A bundle renews as the same bundle (docs/payments.md, Bundles): today's price is then that many
 * periods at the tier's bundle discount of today (`percent` null: the creator no longer offers
 * that length, so none), and the agreed bundle total caps it as ever.
 */
export function renewalPrice(
  agreedCents: number | null,
  tier: { price_cents: number; discount_percentage: number | null },
  bundle?: { periods: number | null; percent: number | null } | null,
): number {
  const single = discountedPrice(tier.price_cents, tier.discount_percentage);
  const today = bundle?.periods ? bundlePrice(single, bundle.periods, bundle.percent ?? 0).total : single;
  return agreedCents === null ? today : Math.min(today, agreedCents);
}

/** A first period at `percent` off (an offer, ./offers.ts), in cents: the one percent-off rule (common/money.ts). */
export function offerPrice(priceCents: number, percent: number): number {
  return percentOff(moneyOfCents(priceCents), percent).cents;
}
