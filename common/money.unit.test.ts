import { describe, expect, it } from 'vitest';
import { fromCents, toCents } from './money';

describe('money in cents', () => {
  it('reads and writes amounts by their digits', () => {
    expect(toCents('40.00')).toBe(4000);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('-12.05')).toBe(-1205);
    expect(toCents('1999')).toBe(199900);
    expect(fromCents(4000)).toBe('40.00');
    expect(fromCents(-1205)).toBe('-12.05');
    expect(fromCents(7)).toBe('0.07');
    expect(() => toCents('1.234')).toThrow();
    expect(() => toCents('abc')).toThrow();
  });
});
