import { z } from 'zod';
import { LIMITS } from './limits';
import { safeText } from './text-schema';
import { COMMENT_TEXTS } from './texts';

/**
 * Comment text: trimmed, non-empty, at most 2000 characters; stored and shown as plain text.
 * A module of its own: the comment box checks its text with it, and importing it from
 * post-schemas.ts built every post and id schema with the post page's comments (17-24 ms of one
 * task on this machine, 70-100 ms at a phone's 4x slowdown; issue 50: total blocking time).
 */
export const commentTextSchema = z
  .string()
  .trim()
  .check(safeText('multi-line'))
  .min(1, COMMENT_TEXTS.textRequired)
  .max(LIMITS.commentMaxLength, COMMENT_TEXTS.textTooLong);
