import { describe, expect, it } from 'vitest';
import { discountedPrice } from '../../common/discounted-price';
import { formatCents, moneyOfCents, percentOff } from '../../common/money';
import { bundlePrice } from '../../domain/billing/bundles';
import { offerPrice, renewalPrice } from '../../domain/billing/prices';
import { tierPriceView } from '../../src/lib/tier-price';

/**
 * One percent-off rule (issue 45; docs/payments.md "Money in cents"): the price left to pay is
 * rounded half up to the cent, whether the percent comes from a tier's discount, an offer, a
 * bundle or the browser's preview. Before, 15% off R10.50 (892.5 cents) was R8.93 as a tier
 * discount and R8.92 as an offer or a bundle, which rounded the discount up instead.
 */
describe('percent off', () => {
  it('15% off R10.50 is R8.93 as a tier discount, an offer, a bundle and the preview', () => {
    const rule = percentOff(moneyOfCents(10_50), 15).cents;
    expect(rule).toBe(8_93);
    expect(discountedPrice(10_50, 15)).toBe(rule);
    expect(renewalPrice(null, { price_cents: 10_50, discount_percentage: 15 })).toBe(rule);
    expect(offerPrice(10_50, 15)).toBe(rule);
    // a bundle of 3 periods of R3.50 at 15% off: the same R10.50 at the same percent
    expect(bundlePrice(3_50, 3, 15)).toEqual({ total: rule, saving: 1_57 });
    expect(tierPriceView({ price: '10.50', paymentInterval: 'monthly', discountPercentage: 15 }).now).toBe(formatCents(rule));
  });

  it('agree with each other on every price and percent near a half cent', () => {
    for (let cents = 1; cents <= 2_000; cents += 7) {
      for (const percent of [1, 5, 10, 15, 25, 33, 50, 75, 90]) {
        const rule = percentOff(moneyOfCents(cents), percent).cents;
        expect([discountedPrice(cents, percent), offerPrice(cents, percent), bundlePrice(cents, 1, percent).total], `${percent}% off ${cents} cents`).toEqual([rule, rule, rule]);
      }
    }
  });
});
