import { z } from 'zod';
import { readUsernameSegment } from './username-segment';
import { PROFILE_TEXTS } from './texts';

/**
 * The /{username} path segment as a procedure's input: the rule of readUsernameSegment (required
 * 'Username is required', matched lower-cased), which the browser runs without zod.
 */
export const profileUsernameSchema = z.string({ error: PROFILE_TEXTS.usernameRequired }).transform((raw, ctx) => {
  const read = readUsernameSegment(raw);
  if (read.username !== null) return read.username;
  ctx.addIssue({ code: 'custom', message: read.error, input: raw });
  return z.NEVER;
});
