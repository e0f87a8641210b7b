import { describe, expect, it } from 'vitest';
import { offerPrice, renewalPrice } from './prices';

describe('renewalPrice', () => {
  const tier = (price: string, discount: number | null = null) => ({ price, discount_percentage: discount });
  it('charges what was agreed unless today’s discounted price is lower', () => {
    expect(renewalPrice('40.00', tier('99999.00', 20))).toBe('40.00');
    expect(renewalPrice('40.00', tier('30.00', 20))).toBe('24.00');
    expect(renewalPrice('40.00', tier('50.00', 20))).toBe('40.00');
    expect(renewalPrice('0.10', tier('0.20', 50))).toBe('0.10');
  });
  it('nothing agreed: today’s price', () => {
    expect(renewalPrice(null, tier('50.00', 20))).toBe('40.00');
  });
});

describe('offerPrice', () => {
  it('takes the percent off in whole cents, rounding the price left to pay half up', () => {
    expect(offerPrice('40.00', 25)).toBe('30.00');
    expect(offerPrice('33.33', 10)).toBe('30.00');
    // 90% of 5 cents is 4.5 cents -> 5 (before issue 45 the discount was rounded up instead: 0.04)
    expect(offerPrice('0.05', 10)).toBe('0.05');
    expect(offerPrice('10.50', 15)).toBe('8.93');
  });
});

describe('renewalPrice of a bundle', () => {
  const tier = { price: '50.00', discount_percentage: 20 };
  it('charges the agreed bundle total, or the bundle of today when lower', () => {
    // 3 x 40.00 at 10% off = 108.00
    expect(renewalPrice('108.00', tier, { periods: 3, percent: 10 })).toBe('108.00');
    expect(renewalPrice('108.00', tier, { periods: 3, percent: 20 })).toBe('96.00');
    // the creator dropped the bundle: 3 full periods (120.00) is more than agreed
    expect(renewalPrice('108.00', tier, { periods: 3, percent: null })).toBe('108.00');
  });
  it('is the single period without a bundle', () => {
    expect(renewalPrice('108.00', tier, { periods: null, percent: null })).toBe('40.00');
  });
});
