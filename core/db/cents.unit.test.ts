import { describe, expect, it } from 'vitest';
import { readCents, withCents } from './cents';

describe('stored cents', () => {
  it('reads a bigint column or a sum of one as whole cents, exactly', () => {
    expect(readCents('1050')).toBe(1050);
    expect(readCents('-4005')).toBe(-4005);
    expect(readCents('9999999999')).toBe(9_999_999_999);
    expect(readCents(null)).toBeNull();
  });

  it('refuses what is no whole number of cents, or too large a one to be exact', () => {
    for (const bad of ['10.50', '1e3', '', ' 5']) expect(() => readCents(bad), bad).toThrow(RangeError);
    expect(() => readCents('9'.repeat(17))).toThrow(RangeError);
  });

  it('reads the named columns of a row and leaves the rest', () => {
    expect(withCents({ id: 'a', price_cents: '5000', next_price_cents: null as string | null, name: '10' }, ['price_cents', 'next_price_cents'])).toEqual({
      id: 'a', price_cents: 5000, next_price_cents: null, name: '10',
    });
  });
});
