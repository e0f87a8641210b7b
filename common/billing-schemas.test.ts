import { describe, expect, it } from 'vitest';
import { discountedPrice } from './discounted-price';
import { PriceInput, TierInput } from './billing-schemas';

describe('discountedPrice (spec: price − price × percent / 100, to the cent)', () => {
  it('computes the price a subscriber pays, in cents', () => {
    expect(discountedPrice(50_00, 20)).toBe(40_00);
    expect(discountedPrice(19_99, 15)).toBe(16_99);
    expect(discountedPrice(10_00, null)).toBe(10_00);
    expect(discountedPrice(10_00, 100)).toBe(0);
    expect(discountedPrice(99, 33)).toBe(66);
  });
});

describe('PriceInput', () => {
  it('normalises to 2 decimals and refuses 0, negatives, text and a third decimal', () => {
    expect(PriceInput.parse('50')).toBe('50.00');
    expect(PriceInput.parse(9.5)).toBe('9.50');
    expect(PriceInput.parse(' 12.30 ')).toBe('12.30');
    for (const bad of ['0', '0.00', '-1', 'abc', '1.234', '', 0.1 + 0.2]) expect(PriceInput.safeParse(bad).success, String(bad)).toBe(false);
  });
  it('the tier form: optional description and discount become null', () => {
    expect(TierInput.parse({ name: ' Gold ', price: '5', paymentInterval: 'weekly', description: '', discountPercentage: undefined })).toEqual({
      name: 'Gold', description: null, price: '5.00', paymentInterval: 'weekly', discountPercentage: null,
    });
  });
});
