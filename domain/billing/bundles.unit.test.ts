import { describe, expect, it } from 'vitest';
import { toCents } from '../../common/money';
import { bundlePrice } from './bundles';

describe('bundlePrice', () => {
  it('takes the percent off the periods together, in whole cents', () => {
    expect(bundlePrice('40.00', 3, 10)).toEqual({ total: '108.00', saving: '12.00' });
    expect(bundlePrice('9.99', 12, 25)).toEqual({ total: '89.91', saving: '29.97' });
  });
  it('rounds the total half up to the cent, and total + saving is the full price', () => {
    // 3 x 0.05 = 15 cents, 90% of it = 13.5 cents -> 14 (before issue 45 the saving was rounded up: 0.13 and 0.02)
    expect(bundlePrice('0.05', 3, 10)).toEqual({ total: '0.14', saving: '0.01' });
    // 6 x 33.33 = 199.98, 15% = 29.997 -> 30.00
    expect(bundlePrice('33.33', 6, 15)).toEqual({ total: '169.98', saving: '30.00' });
    for (const [price, n, pct] of [['12.34', 3, 7], ['99999.99', 12, 75], ['0.01', 6, 1]] as const) {
      const { total, saving } = bundlePrice(price, n, pct);
      expect(toCents(total) + toCents(saving)).toBe(toCents(price) * n);
    }
  });
  it('with no discount (a bundle the creator removed) is the periods at full price', () => {
    expect(bundlePrice('40.00', 6, 0)).toEqual({ total: '240.00', saving: '0.00' });
  });
});
