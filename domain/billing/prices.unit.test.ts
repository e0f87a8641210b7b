import { describe, expect, it } from 'vitest';
import { offerPrice, renewalPrice } from './prices';

describe('renewalPrice', () => {
  const tier = (priceCents: number, discount: number | null = null) => ({ price_cents: priceCents, discount_percentage: discount });
  it('charges what was agreed unless today’s discounted price is lower', () => {
    expect(renewalPrice(40_00, tier(99999_00, 20))).toBe(40_00);
    expect(renewalPrice(40_00, tier(30_00, 20))).toBe(24_00);
    expect(renewalPrice(40_00, tier(50_00, 20))).toBe(40_00);
    expect(renewalPrice(10, tier(20, 50))).toBe(10);
  });
  it('nothing agreed: today’s price', () => {
    expect(renewalPrice(null, tier(50_00, 20))).toBe(40_00);
  });
});

describe('offerPrice', () => {
  it('takes the percent off in whole cents, rounding the price left to pay half up', () => {
    expect(offerPrice(40_00, 25)).toBe(30_00);
    expect(offerPrice(33_33, 10)).toBe(30_00);
    // 90% of 5 cents is 4.5 cents -> 5 (before issue 45 the discount was rounded up instead: 4)
    expect(offerPrice(5, 10)).toBe(5);
    expect(offerPrice(10_50, 15)).toBe(8_93);
  });
});

describe('renewalPrice of a bundle', () => {
  const tier = { price_cents: 50_00, discount_percentage: 20 };
  it('charges the agreed bundle total, or the bundle of today when lower', () => {
    // 3 x 40.00 at 10% off = 108.00
    expect(renewalPrice(108_00, tier, { periods: 3, percent: 10 })).toBe(108_00);
    expect(renewalPrice(108_00, tier, { periods: 3, percent: 20 })).toBe(96_00);
    // the creator dropped the bundle: 3 full periods (120.00) is more than agreed
    expect(renewalPrice(108_00, tier, { periods: 3, percent: null })).toBe(108_00);
  });
  it('is the single period without a bundle', () => {
    expect(renewalPrice(108_00, tier, { periods: null, percent: null })).toBe(40_00);
  });
});
