import { describe, expect, it } from 'vitest';
import { formatRelativeTime, formatShortDateTime } from './format';

describe('formatShortDateTime', () => {
  it('is the en-US short date and time', () => {
    expect(formatShortDateTime(new Date(2025, 2, 14, 16, 5))).toMatch(/^3\/14\/25, 4:05\s?PM$/);
  });
});

describe('formatRelativeTime', () => {
  const now = new Date(2025, 5, 15, 12, 0);
  it('counts minutes, hours and days, then shows the date', () => {
    expect(formatRelativeTime(new Date(now.getTime() - 20_000), now)).toBe('just now');
    expect(formatRelativeTime(new Date(now.getTime() - 5 * 60_000), now)).toBe('5m');
    expect(formatRelativeTime(new Date(now.getTime() - 3 * 3_600_000), now)).toBe('3h');
    expect(formatRelativeTime(new Date(now.getTime() - 2 * 86_400_000), now)).toBe('2d');
    expect(formatRelativeTime(new Date(2025, 2, 14), now)).toBe('Mar 14');
    expect(formatRelativeTime(new Date(2024, 2, 14), now)).toBe('Mar 14, 2024');
  });
});
