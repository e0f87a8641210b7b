import { describe, expect, it } from 'vitest';
import { fromCents, toCents } from './money';

describe('money in cents', () => {
  it('reads rand exactly and writes it back', () => {
    expect(toCents('99.00')).toBe(9900);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('3428.2')).toBe(342820);
    expect(toCents('-40.05')).toBe(-4005);
    expect(fromCents(342820)).toBe('3428.20');
    expect(fromCents(-5)).toBe('-0.05');
    // 0.1 + 0.2 in floats is 0.30000000000000004; in cents it is 30
    expect(fromCents(toCents('0.10') + toCents('0.20'))).toBe('0.30');
  });

  it('refuses what is not an amount', () => {
    expect(() => toCents('1e3')).toThrow(RangeError);
    expect(() => toCents('12.345')).toThrow(RangeError);
    expect(() => fromCents(1.5)).toThrow(RangeError);
  });
});
