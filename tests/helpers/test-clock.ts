/**
 * Where a test's fixed clock (core/clock.ts `fixedClock`) starts. A test that moves a clock of its
 * own still calls a server, a worker and PostgreSQL that read the real time (`now()` in SQL is
 * never moved), so its start is taken from the real now: a subscription made at a fixed past
 * date was over for the server once that date plus a period had gone by, and eight tests failed
 * a week after they were written. tests/unit/test-dates.unit.test.ts refuses date literals in
 * such tests.
 */

const MINUTE_MS = 60_000;

/** The real now, down to the whole minute (round figures in a failure's diff; still in the past). */
export function clockStart(): Date {
  return new Date(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS);
}

/**
 * The first `day` of `month` (0 = January) at `hour`:00 UTC after the real now: a calendar case
 * (a month's last day) that stays ahead of the real time, whatever the date the test runs on.
 */
export function nextCalendarDay(month: number, day: number, hour: number): Date {
  const now = Date.now();
  for (let year = new Date(now).getUTCFullYear(); ; year++) {
    const at = new Date(Date.UTC(year, month, day, hour));
    if (at.getUTCMonth() !== month) throw new Error(`${day} is not a day of month ${month}`);
    if (at.getTime() > now) return at;
  }
}
