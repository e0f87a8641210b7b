import { z } from 'zod';
import { textProblem, type TextKind } from './text-rules';

/**
 * A zod check for a string schema: `z.string().trim().check(safeText('single-line')).min(...)`.
 * It stops the checks after it, so a bad character is reported alone rather than beside a
 * length or format message about the same unusable text.
 */
export function safeText(kind: TextKind = 'multi-line') {
  return z.superRefine<string>((value, ctx) => {
    const message = textProblem(value, kind);
    if (message) ctx.addIssue({ code: 'custom', message, input: value, continue: false });
  });
}

/** `z.string(params)` that refuses what `safeText(kind)` refuses, for fields with no other rule first. */
export function safeString(kind: TextKind = 'multi-line', params?: Parameters<typeof z.string>[0]) {
  return z.string(params).check(safeText(kind));
}
