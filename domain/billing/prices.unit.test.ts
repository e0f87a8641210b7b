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
  it('takes the percent off in whole cents, rounding half up', () => {
    expect(offerPrice('40.00', 25)).toBe('30.00');
    expect(offerPrice('33.33', 10)).toBe('30.00');
    expect(offerPrice('0.05', 10)).toBe('0.04');
  });
});
