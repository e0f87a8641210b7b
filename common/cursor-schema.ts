import { z } from 'zod';
import { isUuid } from './ids';

/**
 * Keyset cursors (one schema for every list): the last row's time as ISO-8601 UTC with up to
 * microseconds (PostgreSQL's precision; a JS Date would lose them and skip rows made in the same
 * millisecond) and its id. Clients treat a cursor as opaque and send back `nextCursor`; anything
 * else is refused here ('Invalid cursor', 400), before it can reach the database, which would
 * fail on an impossible time (2026-02-30, hour 25, year 0) with a 500.
 */
export const INVALID_CURSOR = 'Invalid cursor';

const ISO_INSTANT = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * An instant that exists, written as the server writes it: the calendar date and time of day
 * read back unchanged (no February 30th, no hour 24), and a year PostgreSQL stores (1 and on).
 */
export function isRealInstant(value: string): boolean {
  const match = ISO_INSTANT.exec(value);
  if (!match || Number(match[1]) < 1) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === value.slice(0, 19);
}

export const cursorInstant = z.string().max(40).refine(isRealInstant, INVALID_CURSOR);
export const cursorId = z.string().refine(isUuid, INVALID_CURSOR);

/** The feed, profile, drafts, bookmarks and Explore cursor. */
export const FeedCursor = z.object({ createdAt: cursorInstant, id: cursorId });
export type FeedCursor = z.infer<typeof FeedCursor>;

/** The same position as one string, `<instant><separator><id>` (the message lists: `~`; subscribers: `|`). */
export function joinedCursor(separator: '~' | '|') {
  return z
    .string()
    .max(100)
    .refine((value) => {
      const parts = value.split(separator);
      return parts.length === 2 && isRealInstant(parts[0]!) && isUuid(parts[1]!);
    }, INVALID_CURSOR);
}
