import { VALIDATION } from './texts';

/**
 * Text a user sends is stored in PostgreSQL, which refuses U+0000 in text and jsonb (and has no
 * use for the other C0 controls): such input is refused by its schema with a clear message
 * instead of failing in the database. Lone UTF-16 surrogates are refused too: they are not
 * characters, and UTF-8 cannot carry them.
 *
 * 'multi-line' (post text, comments, messages) keeps tab, line feed and carriage return;
 * 'single-line' (names, usernames, titles, search, ids) refuses line breaks as well.
 */
export type TextKind = 'single-line' | 'multi-line';

/** C0 controls and DEL, but tab, line feed and carriage return (line breaks are the kind's business) */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LINE_BREAK = /[\n\r]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be stored as a field of this kind, in the words the user reads; null when it can. */
export function textProblem(value: string, kind: TextKind = 'multi-line'): string | null {
  if (CONTROL.test(value)) return VALIDATION.controlCharacters;
  if (kind === 'single-line' && LINE_BREAK.test(value)) return VALIDATION.lineBreaks;
  if (LONE_SURROGATE.test(value)) return VALIDATION.invalidCharacters;
  return null;
}
