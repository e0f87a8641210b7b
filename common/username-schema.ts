import { z } from 'zod';
import { safeText } from './text-schema';
import { PROFILE_TEXTS } from './texts';

/**
 * The /{username} path segment: required ('Username is required'); matched lower-cased. A module
 * of its own: the browser parses the profile route's segment with it before the page is shown,
 * and the rest of the profile schemas (post ids, cursors, links) cost a slow phone a long task
 * to build (issue 30: total blocking time).
 */
export const profileUsernameSchema = z
  .string({ error: PROFILE_TEXTS.usernameRequired })
  .trim()
  .check(safeText('single-line'))
  .min(1, PROFILE_TEXTS.usernameRequired)
  .max(100, PROFILE_TEXTS.notFound.title)
  .transform((v) => v.replace(/^@/, '').toLowerCase());
