import { describe, expect, it } from 'vitest';
import { bundlePrice } from './bundles';

describe('bundlePrice', () => {
  it('takes the percent off the periods together, in whole cents', () => {
    expect(bundlePrice('40.00', 3, 10)).toEqual({ total: '108.00', saving: '12.00' });
    expect(bundlePrice('9.99', 12, 25)).toEqual({ total: '89.91', saving: '29.97' });
  });
  it('rounds the saving half up to the cent, and total + saving is the full price', () => {
    // 3 x 0.05 = 15 cents, 10% = 1.5 cents -> 2
    expect(bundlePrice('0.05', 3, 10)).toEqual({ total: '0.13', saving: '0.02' });
    // 6 x 33.33 = 199.98, 15% = 29.997 -> 30.00
    expect(bundlePrice('33.33', 6, 15)).toEqual({ total: '169.98', saving: '30.00' });
    for (const [price, n, pct] of [['12.34', 3, 7], ['99999.99', 12, 75], ['0.01', 6, 1]] as const) {
      const { total, saving } = bundlePrice(price, n, pct);
      expect(Math.round(Number(total) * 100) + Math.round(Number(saving) * 100)).toBe(Math.round(Number(price) * 100) * n);
    }
  });
  it('with no discount (a bundle the creator removed) is the periods at full price', () => {
    expect(bundlePrice('40.00', 6, 0)).toEqual({ total: '240.00', saving: '0.00' });
  });
});
