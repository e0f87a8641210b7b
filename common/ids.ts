import { z } from 'zod';
import { BILLING_TEXTS, COMMENT_TEXTS, MESSAGE_TEXTS, POST_TEXTS } from './texts';
import { REFUND_TEXTS } from './payment-texts';

/**
 * Ids, parsed once: every tRPC input and HTTP route parameter that names a row reads it with one
 * of these schemas, so no service checks an id's shape again.
 *
 * One policy: an id that is not a uuid names nothing, so it is answered exactly like an unknown
 * id (the same code and words: 'Post not found', 404), never as a 'Validation Error' — a
 * malformed link says no more than a dead one. The issue carries that answer in its params
 * (`UNKNOWN_ID`); the server's procedures turn it into the error (server/trpc/init.ts) and the
 * HTTP routes into their 404.
 */

/** The 8-4-4-4-12 hex form PostgreSQL's uuid type accepts from us (any version, either case). */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID_PATTERN.test(value);

/** The key of a zod issue's params naming the answer an unknown id gets. */
export const UNKNOWN_ID = 'unknownId';

/** What an unknown id is answered with: the tRPC code and the words of the thing not found. */
export interface UnknownIdAnswer {
  code: 'NOT_FOUND' | 'BAD_REQUEST';
  message: string;
}

/**
 * An id of a thing that answers 'not found' in `message` (with `code`, NOT_FOUND unless the
 * unknown id is the caller's mistake, e.g. a reply to a comment that is not there). `required`:
 * the words for an empty id, a validation error of its own (a form's missing field).
 */
export function entityId(message: string, { code = 'NOT_FOUND', required }: { code?: UnknownIdAnswer['code']; required?: string } = {}) {
  const answer: UnknownIdAnswer = { code, message };
  // trimmed: an id copied with a space around it is still the id
  const base = required ? z.string().trim().min(1, { message: required, abort: true }) : z.string().trim();
  return base.refine(isUuid, { message, params: { [UNKNOWN_ID]: answer } });
}

/** The answer for an unknown id when `error` is (or holds) an id schema's refusal; null otherwise. */
export function unknownIdAnswer(error: z.ZodError): UnknownIdAnswer | null {
  for (const issue of error.issues) {
    const answer = issue.code === 'custom' ? (issue.params?.[UNKNOWN_ID] as UnknownIdAnswer | undefined) : undefined;
    if (answer) return answer;
  }
  return null;
}

/** `value` as an id when it is one (HTTP route parameters: a malformed one is a 404 like an unknown one). */
export function readId(value: unknown): string | null {
  return typeof value === 'string' && isUuid(value) ? value : null;
}

export const postId = entityId(POST_TEXTS.notFound, { required: POST_TEXTS.idRequired });
export const commentParentId = entityId(COMMENT_TEXTS.parentNotFound, { code: 'BAD_REQUEST' });
export const messageId = entityId(MESSAGE_TEXTS.messageNotFound);
export const attachmentId = entityId(MESSAGE_TEXTS.attachmentNotFound, { code: 'BAD_REQUEST' });
export const replyToId = entityId(MESSAGE_TEXTS.replyNotInConversation, { code: 'BAD_REQUEST' });
export const reportId = entityId(MESSAGE_TEXTS.reportNotFound);
export const tierId = entityId(BILLING_TEXTS.tierNotFound);
export const premiumTierId = entityId(BILLING_TEXTS.premiumTierMissing);
export const subscriptionId = entityId(BILLING_TEXTS.subscriptionNotFound);
export const paymentId = entityId(REFUND_TEXTS.paymentNotFound);

/**
 * Ids of things that may or may not be there, where an unknown one changes nothing (messages
 * marked read): malformed ones are dropped like unknown ones, duplicates once.
 */
export const idList = (max: number) =>
  z
    .array(z.string().max(100))
    .min(1)
    .max(max)
    .transform((ids) => [...new Set(ids.filter(isUuid))]);
