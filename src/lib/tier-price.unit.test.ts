import { describe, expect, it } from 'vitest';
import { tierPriceView } from './tier-price';

describe('tier prices', () => {
  it('shows a discounted weekly tier as the struck price, the discounted one and the percentage', () => {
    expect(tierPriceView({ price: '50.00', paymentInterval: 'weekly', discountPercentage: 20 })).toEqual({
      now: 'R40.00',
      was: 'R50.00',
      off: '(20% off)',
      per: '/ week',
    });
  });

  it('rounds the discounted price to 2 decimals', () => {
    expect(tierPriceView({ price: '99.99', paymentInterval: 'weekly', discountPercentage: 33 }).now).toBe('R66.99');
    expect(tierPriceView({ price: '10.00', paymentInterval: 'monthly', discountPercentage: 15 }).now).toBe('R8.50');
  });

  it('shows no discount for 0 or none, and the full price for 100% as R0.00', () => {
    expect(tierPriceView({ price: '150', paymentInterval: 'annually', discountPercentage: 0 })).toEqual({ now: 'R150.00', was: null, off: null, per: '/ year' });
    expect(tierPriceView({ price: '150', paymentInterval: 'monthly', discountPercentage: null }).was).toBeNull();
    expect(tierPriceView({ price: '150', paymentInterval: 'monthly', discountPercentage: 100 }).now).toBe('R0.00');
  });
});
