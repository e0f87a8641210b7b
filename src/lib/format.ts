/**
 * Dates and counts as the screens show them. Comment timestamps follow the spec (part 1 §2):
 * en-US short format, e.g. "3/14/25, 4:05 PM".
 *
 * A date is shown in the viewer's time zone ('local'), except in a server-rendered page's HTML
 * and while the browser adopts it ('utc', use-display-zone.ts): the server cannot know the
 * viewer's zone, and the two renders must agree; the screen then shows the local time.
 */
export type DisplayZone = 'local' | 'utc';

/**
 * A format's formatter per zone, made on its first use: making one costs a few milliseconds
 * (tens on a slow phone), and making all eight when this module loads was a long task of the
 * page's start (issue 30: total blocking time). A hydrating page uses only the 'utc' ones.
 */
function zoned(options: Intl.DateTimeFormatOptions): Record<DisplayZone, Intl.DateTimeFormat> {
  const made: Partial<Record<DisplayZone, Intl.DateTimeFormat>> = {};
  const make = (zone: DisplayZone) => new Intl.DateTimeFormat('en-US', zone === 'utc' ? { ...options, timeZone: 'UTC' } : options);
  return {
    get local() {
      return (made.local ??= make('local'));
    },
    get utc() {
      return (made.utc ??= make('utc'));
    },
  };
}

const SHORT_DATE_TIME = zoned({ dateStyle: 'short', timeStyle: 'short' });
const LONG_DATE_TIME = zoned({ dateStyle: 'medium', timeStyle: 'short' });
const MONTH_DAY = zoned({ month: 'short', day: 'numeric' });
const MONTH_DAY_YEAR = zoned({ month: 'short', day: 'numeric', year: 'numeric' });

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The spec's comment timestamp: Intl.DateTimeFormat('en-US', {dateStyle: 'short', timeStyle: 'short'}). */
export function formatShortDateTime(value: Date | string, zone: DisplayZone = 'local'): string {
  return SHORT_DATE_TIME[zone].format(toDate(value));
}

/** "Mar 14, 2025, 4:05 PM": the full date behind a relative time (its title). */
export function formatLongDateTime(value: Date | string, zone: DisplayZone = 'local'): string {
  return LONG_DATE_TIME[zone].format(toDate(value));
}

/** "just now", "5m", "3h", "2d", then "Mar 14" (this year) or "Mar 14, 2024". */
export function formatRelativeTime(value: Date | string, now: Date = new Date(), zone: DisplayZone = 'local'): string {
  const date = toDate(value);
  const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  const sameYear = zone === 'utc' ? date.getUTCFullYear() === now.getUTCFullYear() : date.getFullYear() === now.getFullYear();
  return sameYear ? MONTH_DAY[zone].format(date) : MONTH_DAY_YEAR[zone].format(date);
}

/** "Mar 14": a month and day, whatever the year. */
export function formatMonthDay(value: Date | string, zone: DisplayZone = 'local'): string {
  return MONTH_DAY[zone].format(toDate(value));
}

/** ISO string for a <time dateTime>. */
export function isoString(value: Date | string): string {
  return toDate(value).toISOString();
}

/** "Mar 14, 2025": billing dates (renews on, ends on, paid on). */
export function formatCalendarDate(value: Date | string, zone: DisplayZone = 'local'): string {
  return MONTH_DAY_YEAR[zone].format(toDate(value));
}
