/**
 * Dates and counts as the screens show them. Comment timestamps follow the spec (part 1 §2):
 * en-US short format, e.g. "3/14/25, 4:05 PM".
 */
const SHORT_DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short' });
const LONG_DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const MONTH_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const MONTH_DAY_YEAR = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The spec's comment timestamp: Intl.DateTimeFormat('en-US', {dateStyle: 'short', timeStyle: 'short'}). */
export function formatShortDateTime(value: Date | string): string {
  return SHORT_DATE_TIME.format(toDate(value));
}

/** "Mar 14, 2025, 4:05 PM": the full date behind a relative time (its title). */
export function formatLongDateTime(value: Date | string): string {
  return LONG_DATE_TIME.format(toDate(value));
}

/** "just now", "5m", "3h", "2d", then "Mar 14" (this year) or "Mar 14, 2024". */
export function formatRelativeTime(value: Date | string, now: Date = new Date()): string {
  const date = toDate(value);
  const seconds = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  return date.getFullYear() === now.getFullYear() ? MONTH_DAY.format(date) : MONTH_DAY_YEAR.format(date);
}

/** ISO string for a <time dateTime>. */
export function isoString(value: Date | string): string {
  return toDate(value).toISOString();
}

/** "Mar 14, 2025": billing dates (renews on, ends on, paid on). */
export function formatCalendarDate(value: Date | string): string {
  return MONTH_DAY_YEAR.format(toDate(value));
}
