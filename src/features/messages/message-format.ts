import { formatMonthDay } from '../../lib/format';

/**
 * How the messaging screens write times (spec part 2 §2, §9): the chat list shows a conversation's
 * last message as month day and hour:minute ("Mar 14, 16:05"); the thread shows HH:mm ("16:05").
 * Both in the reader's time zone, 24-hour.
 */

const pad = (n: number) => String(n).padStart(2, '0');

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** HH:mm: the thread's timestamp. */
export function formatMessageTime(value: Date | string): string {
  const date = toDate(value);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** "Mar 14, 16:05": the chat list's time of the last message. */
export function formatPreviewTime(value: Date | string): string {
  const date = toDate(value);
  return `${formatMonthDay(date)}, ${formatMessageTime(date)}`;
}

/** A day heading between messages of different days: "Today", "Yesterday", else "Mar 14, 2025". */
export function formatDayLabel(value: Date | string, now: Date = new Date()): string {
  const date = toDate(value);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(date)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return `${formatMonthDay(date)}, ${date.getFullYear()}`;
}

export function isSameDay(a: Date | string, b: Date | string): boolean {
  const x = toDate(a);
  const y = toDate(b);
  return x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate();
}

/** "850 KB", "2.4 MB": an attachment's size. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
