import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatLongDateTime, formatMonthDay, formatRelativeTime, formatShortDateTime } from './format';

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

describe('the dates written without Intl', () => {
  // every month, both halves of the day, midnight and noon, across a year boundary
  const dates = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2000 + (i % 3) * 4, i % 12, 1 + ((i * 7) % 28), (i * 5) % 24, (i * 13) % 60)));
  const intl = (options: Intl.DateTimeFormatOptions, zone: 'local' | 'utc') => new Intl.DateTimeFormat('en-US', zone === 'utc' ? { ...options, timeZone: 'UTC' } : options);

  it.each(['local', 'utc'] as const)('say what Intl en-US says, in the %s zone', (zone) => {
    const long = intl({ dateStyle: 'medium', timeStyle: 'short' }, zone);
    const short = intl({ dateStyle: 'short', timeStyle: 'short' }, zone);
    const monthDay = intl({ month: 'short', day: 'numeric' }, zone);
    const monthDayYear = intl({ month: 'short', day: 'numeric', year: 'numeric' }, zone);
    const later = new Date(Date.UTC(2024, 11, 31, 23, 0));
    for (const date of dates) {
      expect(formatLongDateTime(date, zone)).toBe(long.format(date));
      expect(formatShortDateTime(date, zone)).toBe(short.format(date));
      expect(formatMonthDay(date, zone)).toBe(monthDay.format(date));
      expect(formatCalendarDate(date, zone)).toBe(monthDayYear.format(date));
      const old = new Date(date.getTime() - 400 * 86_400_000);
      expect(formatRelativeTime(old, later, zone)).toBe(monthDayYear.format(old));
    }
  });
});
