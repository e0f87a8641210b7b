import { z } from 'zod';
import { PROFILE_LIMITS } from '../../common/limits';

/**
 * A search box's text in the URL (?q=): trimmed, at most 200 characters, absent when empty. The
 * router reads `?q=123` typed by hand as a number, so numbers count as text; anything else
 * malformed is dropped rather than shown as an error page.
 */
export const searchTextParam = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim().slice(0, PROFILE_LIMITS.searchMaxLength) || undefined)
  .optional()
  .catch(undefined);
