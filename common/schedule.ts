/**
 * Scheduled posts (issue 29 item 1): a post may be scheduled for a time in the future, at most a
 * year ahead. One rule for the upload form, the Scheduled tab's Reschedule and the server (which
 * checks it against its own clock, deps.clock).
 */
export const SCHEDULE_MAX_AHEAD_DAYS = 365;
const DAY_MS = 86_400_000;

export const SCHEDULE_TEXTS = {
  inPast: 'Choose a time in the future',
  tooFar: `Choose a time at most ${SCHEDULE_MAX_AHEAD_DAYS} days ahead`,
  required: 'Choose a date and time to publish',
  scheduled: { title: 'Post scheduled', description: 'It will be published at its time.' },
  rescheduled: { title: 'Schedule changed', description: 'The post will be published at its new time.' },
  cancelled: { title: 'Schedule cancelled', description: 'The post is back in your drafts.' },
  noScheduled: 'No scheduled posts',
  cancelAsk: { title: 'Cancel this schedule?', description: 'The post will not be published at its time; it stays in your drafts.' },
} as const;

/** Why `publishAt` cannot be a post's time as of `now`, or null when it can. */
export function scheduleProblem(publishAt: Date, now: Date): string | null {
  if (Number.isNaN(publishAt.getTime())) return SCHEDULE_TEXTS.required;
  if (publishAt.getTime() <= now.getTime()) return SCHEDULE_TEXTS.inPast;
  if (publishAt.getTime() > now.getTime() + SCHEDULE_MAX_AHEAD_DAYS * DAY_MS) return SCHEDULE_TEXTS.tooFar;
  return null;
}

/**
 * The time a `<input type="date">` and `<input type="time">` mean in the browser's own time zone
 * (the creator's), or null when either is empty or malformed.
 */
export function localDateTime(date: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const at = new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  return Number.isNaN(at.getTime()) ? null : at;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `at` as the date and time inputs' values in the browser's time zone. */
export function toDateTimeInputs(at: Date): { date: string; time: string } {
  return { date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`, time: `${pad(at.getHours())}:${pad(at.getMinutes())}` };
}
