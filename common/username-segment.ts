import { textProblem } from './text-rules';
import { PROFILE_TEXTS } from './texts';

/** What the /{username} path segment names, or the message a missing or unusable one gets. */
export type UsernameSegment = { username: string; error: null } | { username: null; error: string };

const MAX_LENGTH = 100;

/**
 * The /{username} path segment as the app reads it: trimmed, required ('Username is required'),
 * without a leading @, lower-cased. Plain code, not a schema: the browser reads the segment
 * before a profile is shown, and building a zod schema there cost a slow phone a long task
 * (issue 30: total blocking time); the procedures' schema (profile-schemas.ts, profileUsernameSchema) runs this same rule.
 */
export function readUsernameSegment(raw: string): UsernameSegment {
  const value = raw.trim();
  const problem = textProblem(value, 'single-line');
  if (problem) return { username: null, error: problem };
  if (value.length === 0) return { username: null, error: PROFILE_TEXTS.usernameRequired };
  if (value.length > MAX_LENGTH) return { username: null, error: PROFILE_TEXTS.notFound.title };
  return { username: value.replace(/^@/, '').toLowerCase(), error: null };
}
