import { describe, expect, it } from 'vitest';
import {
  addMoney,
  allocateMoney,
  canonicalRand,
  compareMoney,
  formatCents,
  formatMoney,
  fromCents,
  moneyOfCents,
  moneyOfRand,
  multiplyMoney,
  percentOf,
  percentOff,
  randOf,
  subtractMoney,
  toCents,
  wholeRand,
  type Money,
} from './money';

const zar = (cents: number): Money => ({ cents, currency: 'ZAR' });

describe('money in cents', () => {
  it('reads rand exactly and writes it back', () => {
    expect(toCents('99.00')).toBe(9900);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('3428.2')).toBe(342820);
    expect(toCents('-40.05')).toBe(-4005);
    expect(fromCents(342820)).toBe('3428.20');
    expect(fromCents(-5)).toBe('-0.05');
    expect(fromCents(null)).toBeNull();
    // 0.1 + 0.2 in floats is 0.30000000000000004; in cents it is 30
    expect(fromCents(toCents('0.10') + toCents('0.20'))).toBe('0.30');
  });

  it('refuses what is not an amount', () => {
    expect(() => toCents('1e3')).toThrow(RangeError);
    expect(() => toCents('12.345')).toThrow(RangeError);
    expect(() => toCents('9'.repeat(20))).toThrow(RangeError);
    expect(() => fromCents(1.5)).toThrow(RangeError);
  });

  it('is a Money of cents and currency, from and to the rand strings of the API', () => {
    expect(moneyOfRand('10.5')).toEqual({ cents: 1050, currency: 'ZAR' });
    expect(randOf(moneyOfCents(100000_00))).toBe('100000.00');
    expect(wholeRand(5_000)).toEqual(zar(500000));
    expect(() => wholeRand(10.5)).toThrow(RangeError);
    expect(canonicalRand(' 49.9')).toBe('49.90');
    expect(canonicalRand('050')).toBe('50.00');
    expect(formatMoney(zar(342820))).toBe('R3,428.20');
    expect(formatMoney(zar(-4005))).toBe('-R40.05');
    expect(formatCents(342820)).toBe('R3,428.20');
  });

  it('adds, subtracts and multiplies by whole numbers only, in one currency', () => {
    expect(addMoney(zar(10), zar(20))).toEqual(zar(30));
    expect(subtractMoney(zar(10), zar(25))).toEqual(zar(-15));
    expect(multiplyMoney(zar(3333), 6)).toEqual(zar(19998));
    expect(() => multiplyMoney(zar(100), 1.5)).toThrow(RangeError);
    expect(compareMoney(zar(5), zar(7))).toBeLessThan(0);
    expect(() => addMoney(zar(1), { cents: 1, currency: 'USD' } as unknown as Money)).toThrow(RangeError);
  });

  it('takes a percentage rounded half up to the cent (away from zero below it), exactly', () => {
    expect(percentOf(zar(1050), 15)).toEqual(zar(158)); // 157.5
    expect(percentOf(zar(1049), 15)).toEqual(zar(157)); // 157.35
    expect(percentOf(zar(-1050), 15)).toEqual(zar(-158));
    expect(percentOf(zar(-1), 20)).toEqual(zar(0));
    expect(Object.is(percentOf(zar(-1), 20).cents, 0)).toBe(true);
    // the platform's 20% of R0.03 is 0.6 cents -> 1 cent
    expect(percentOf(zar(3), 20)).toEqual(zar(1));
    expect(() => percentOf(zar(100), 12.5)).toThrow(RangeError);
    expect(() => percentOf(zar(100), 101)).toThrow(RangeError);
  });

  it('takes a percent off by rounding what is left to pay half up', () => {
    expect(percentOff(zar(1050), 15)).toEqual(zar(893)); // 892.5 -> 893
    expect(percentOff(zar(5), 10)).toEqual(zar(5)); // 4.5 -> 5
    expect(percentOff(zar(5000), 20)).toEqual(zar(4000));
    expect(percentOff(zar(1999), 15)).toEqual(zar(1699)); // 1699.15
    expect(percentOff(zar(1000), 100)).toEqual(zar(0));
    expect(percentOff(zar(1000), 0)).toEqual(zar(1000));
  });

  it('splits an amount in proportion without losing or making a cent', () => {
    expect(allocateMoney(zar(100), [1, 1, 1])).toEqual([zar(34), zar(33), zar(33)]);
    expect(allocateMoney(zar(5), [80, 20])).toEqual([zar(4), zar(1)]);
    expect(allocateMoney(zar(-100), [1, 2])).toEqual([zar(-33), zar(-67)]);
    expect(allocateMoney(zar(1), [0, 1])).toEqual([zar(0), zar(1)]);
    for (const [cents, weights] of [[1001, [3, 7]], [99999, [1, 2, 3, 4]], [7, [5, 5, 5]]] as const) {
      const parts = allocateMoney(zar(cents), weights);
      expect(parts.reduce((sum, p) => sum + p.cents, 0)).toBe(cents);
    }
    expect(() => allocateMoney(zar(1), [0, 0])).toThrow(RangeError);
    expect(() => allocateMoney(zar(1), [-1, 2])).toThrow(RangeError);
  });
});
