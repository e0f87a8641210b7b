import { describe, expect, it } from 'vitest';
import { formatBadgeCount, formatCompactCount, formatRand, formatSignedRand } from './format';

describe('formatCompactCount', () => {
  it('reads like the spec cards', () => {
    expect(formatCompactCount(12_000)).toBe('12k');
    expect(formatCompactCount(8_500)).toBe('8.5k');
    expect(formatCompactCount(2_300)).toBe('2.3k');
    expect(formatCompactCount(2_000)).toBe('2k');
    expect(formatCompactCount(999)).toBe('999');
    expect(formatCompactCount(0)).toBe('0');
    expect(formatCompactCount(9_990)).toBe('9.9k');
    expect(formatCompactCount(1_250_000)).toBe('1.2M');
  });
});

describe('formatBadgeCount', () => {
  it('shows 99+ above 99', () => {
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
  });
});

describe('formatRand', () => {
  it('prefixes R with two decimals', () => {
    expect(formatRand('150')).toBe('R150.00');
    expect(formatRand(127.5)).toBe('R127.50');
  });

  it('separates thousands (issue 22: R3,428.20), from strings without a float on the way', () => {
    expect(formatRand('3428.20')).toBe('R3,428.20');
    expect(formatRand('3428.2')).toBe('R3,428.20');
    expect(formatRand(3428.2)).toBe('R3,428.20');
    expect(formatRand('99999999.99')).toBe('R99,999,999.99');
    expect(formatRand('1000')).toBe('R1,000.00');
    expect(formatRand('999.99')).toBe('R999.99');
    expect(formatRand('0.01')).toBe('R0.01');
    expect(formatRand('-1250.50')).toBe('-R1,250.50');
    expect(formatRand('1234.567')).toBe('R1,234.57');
    expect(formatRand('999.995')).toBe('R1,000.00');
    expect(formatRand(12000, { whole: true })).toBe('R12,000');
  });
});

describe('formatSignedRand', () => {
  it('shows money going back with a minus sign before the currency', () => {
    expect(formatSignedRand('-40.00')).toBe('\u2212R40.00');
    expect(formatSignedRand('12.50')).toBe('R12.50');
  });
});
