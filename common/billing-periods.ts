import type { PaymentInterval } from './enums';

/**
 * A subscription's period, for the server (domain/billing/periods.ts) and the confirmation the fan
 * sees before paying (its first renewal date) alike: a week, a calendar month, a year, in UTC.
 */

/** One calendar month later; the 31st becomes the last day of a shorter month (Jan 31 -> Feb 28). */
export function addCalendarMonths(start: Date, months: number): Date {
  const d = new Date(start);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/**
 * The end of a period starting at `start`: a week, a calendar month, a year (Feb 29 -> Feb 28);
 * `count` of them at once for a bundle, counted from the start (Jan 31 + 3 months -> Apr 30, not
 * the Apr 28 three single months would drift to).
 */
export function periodEnd(start: Date, interval: PaymentInterval, count = 1): Date {
  switch (interval) {
    case 'weekly':
      return new Date(start.getTime() + count * 7 * 24 * 60 * 60_000);
    case 'monthly':
      return addCalendarMonths(start, count);
    case 'annually':
      return addCalendarMonths(start, 12 * count);
  }
}
