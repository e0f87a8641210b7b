import { describe, expect, it } from 'vitest';
import { bundlePrice } from './bundles';

describe('bundlePrice', () => {
  it('takes the percent off the periods together, in whole cents', () => {
    expect(bundlePrice(40_00, 3, 10)).toEqual({ total: 108_00, saving: 12_00 });
    expect(bundlePrice(9_99, 12, 25)).toEqual({ total: 89_91, saving: 29_97 });
  });
  it('rounds the total half up to the cent, and total + saving is the full price', () => {
    // 3 x 5 cents = 15 cents, 90% of it = 13.5 cents -> 14 (before issue 45 the saving was rounded up: 13 and 2)
    expect(bundlePrice(5, 3, 10)).toEqual({ total: 14, saving: 1 });
    // 6 x 33.33 = 199.98, 15% = 29.997 -> 30.00
    expect(bundlePrice(33_33, 6, 15)).toEqual({ total: 169_98, saving: 30_00 });
    for (const [price, n, pct] of [[12_34, 3, 7], [99999_99, 12, 75], [1, 6, 1]] as const) {
      const { total, saving } = bundlePrice(price, n, pct);
      expect(total + saving).toBe(price * n);
    }
  });
  it('with no discount (a bundle the creator removed) is the periods at full price', () => {
    expect(bundlePrice(40_00, 6, 0)).toEqual({ total: 240_00, saving: 0 });
  });
});
