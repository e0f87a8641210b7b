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
 * The dates are written here rather than by Intl.DateTimeFormat: in Chromium the page's first
 * Intl.DateTimeFormat took 35-90 ms of one task on this machine (140-360 ms at a phone's 4x
 * slowdown), in the middle of hydrating a feed or a post's comments (issue 50: total blocking
 * time), and again for the local zone right after. en-US's month names and 12-hour clock are
 * fixed, so the text is the same as Intl's (format.unit.test.ts compares them).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

interface DateParts {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
}

function partsOf(date: Date, zone: DisplayZone): DateParts {
  return zone === 'utc'
    ? { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate(), hours: date.getUTCHours(), minutes: date.getUTCMinutes() }
    : { year: date.getFullYear(), month: date.getMonth(), day: date.getDate(), hours: date.getHours(), minutes: date.getMinutes() };
}

/** "Mar 14" */
function monthDay(p: DateParts): string {
  return `${MONTHS[p.month]} ${p.day}`;
}

/** "Mar 14, 2025" */
function monthDayYear(p: DateParts): string {
  return `${monthDay(p)}, ${p.year}`;
}

/** "4:05 PM", "12:00 AM" */
function clock(p: DateParts): string {
  const hour = p.hours % 12 === 0 ? 12 : p.hours % 12;
  return `${hour}:${String(p.minutes).padStart(2, '0')} ${p.hours < 12 ? 'AM' : 'PM'}`;
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The spec's comment timestamp, as Intl.DateTimeFormat('en-US', {dateStyle: 'short', timeStyle: 'short'}) writes it: "3/14/25, 4:05 PM". */
export function formatShortDateTime(value: Date | string, zone: DisplayZone = 'local'): string {
  const p = partsOf(toDate(value), zone);
  return `${p.month + 1}/${p.day}/${String(p.year % 100).padStart(2, '0')}, ${clock(p)}`;
}

/** "Mar 14, 2025, 4:05 PM": the full date behind a relative time (its title). */
export function formatLongDateTime(value: Date | string, zone: DisplayZone = 'local'): string {
  const p = partsOf(toDate(value), zone);
  return `${monthDayYear(p)}, ${clock(p)}`;
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
  const p = partsOf(date, zone);
  return p.year === partsOf(now, zone).year ? monthDay(p) : monthDayYear(p);
}

/** "Mar 14": a month and day, whatever the year. */
export function formatMonthDay(value: Date | string, zone: DisplayZone = 'local'): string {
  return monthDay(partsOf(toDate(value), zone));
}

/** ISO string for a <time dateTime>. */
export function isoString(value: Date | string): string {
  return toDate(value).toISOString();
}

/** "Mar 14, 2025": billing dates (renews on, ends on, paid on). */
export function formatCalendarDate(value: Date | string, zone: DisplayZone = 'local'): string {
  return monthDayYear(partsOf(toDate(value), zone));
}
