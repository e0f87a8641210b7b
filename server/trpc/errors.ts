import { TRPCError } from '@trpc/server';
import { STATUS_CODES } from 'node:http';
import pg from 'pg';
import type { Logger } from 'pino';
import { SERVER_TEXTS, VALIDATION } from '../../common/texts';
import { isDependencyUnavailable } from '../../core/dependency-errors';
import { BillingError } from '../../domain/billing/errors';

/** A rule broken by one input field: shown beside that field and in the toast. */
export class FieldError extends Error {
  constructor(
    public readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export function fieldError(field: string, message: string, code: 'BAD_REQUEST' | 'CONFLICT' = 'BAD_REQUEST') {
  return new TRPCError({ code, message, cause: new FieldError(field, message) });
}

/**
 * A billing rule's refusal (domain/billing/errors.ts) as the client reads it: its code and its
 * words, a payment the provider declined being the caller's 400. The procedures' middleware
 * (init.ts) is its one caller, so no service translates a BillingError itself.
 */
export function billingRefusal(error: BillingError): TRPCError {
  return new TRPCError({ code: error.code === 'PAYMENT_FAILED' ? 'BAD_REQUEST' : error.code, message: error.message, cause: error });
}

/**
 * How a paying action (a subscription, tip, unlock, trial) fails: a refusal with words for the
 * user (a TRPCError, or a BillingError the middleware answers) goes on as it is; anything else (a
 * provider out of reach, something unforeseen) is logged and answered 502 with the action's words,
 * since a 500's words are generic and the spec's must reach the user. Nothing was written: the
 * action is one transaction, or a checkout that writes nothing.
 */
export function paymentFailed(log: Pick<Logger, 'error'>, error: unknown, failure: { message: string; logged: string }): never {
  if (error instanceof TRPCError || error instanceof BillingError) throw error;
  log.error({ err: error }, failure.logged);
  throw new TRPCError({ code: 'BAD_GATEWAY', message: failure.message, cause: error instanceof Error ? error : undefined });
}

export class RetryAfter extends Error {
  constructor(public readonly seconds: number) {
    super(`retry after ${seconds}s`);
  }
}

export function tooManyRequests(message: string, retryAfterSeconds: number) {
  return new TRPCError({ code: 'TOO_MANY_REQUESTS', message, cause: new RetryAfter(retryAfterSeconds) });
}

/**
 * SQLSTATEs of data PostgreSQL could not store as sent, with the words the caller reads. The
 * input schemas (common/text-schema.ts) refuse such text first; this is the net under them.
 */
const BAD_DATA_MESSAGES: Readonly<Record<string, string>> = {
  /** character_not_in_repertoire: U+0000 in a text value */
  '22021': VALIDATION.controlCharacters,
  /** untranslatable_character: \u0000 in a jsonb value */
  '22P05': VALIDATION.controlCharacters,
  /** string_data_right_truncation: longer than a varchar column allows */
  '22001': VALIDATION.textTooLong,
};

/** The PostgreSQL error behind `error` (itself or along its causes), if any. */
export function databaseErrorOf(error: unknown): pg.DatabaseError | null {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    if (current instanceof pg.DatabaseError) return current;
    current = current.cause;
  }
  return null;
}

/** What to tell the caller when the database refused the data it sent; null for any other failure. */
export function badDataMessage(error: unknown): string | null {
  const code = databaseErrorOf(error)?.code;
  return code !== undefined && Object.hasOwn(BAD_DATA_MESSAGES, code) ? BAD_DATA_MESSAGES[code]! : null;
}

/**
 * Whether an error's own message may not reach the caller: a server failure (whatever it says,
 * e.g. a library's or the database's words) or a message that repeats the database's.
 */
/**
 * A failure because PostgreSQL or Redis is unavailable for a moment, a 503 the caller may retry
 * (the tRPC formatter answers SERVICE_UNAVAILABLE with SERVER_TEXTS.unavailable).
 */
export function isUnavailable(error: Error & { code?: string }): boolean {
  return error.code === 'SERVICE_UNAVAILABLE' || (error.code === 'INTERNAL_SERVER_ERROR' && isDependencyUnavailable(error));
}

export function isHiddenMessage(error: Error & { code?: string }): boolean {
  if (error.code === 'INTERNAL_SERVER_ERROR') return true;
  const database = databaseErrorOf(error);
  return database !== null && error.message.includes(database.message);
}

export interface HttpErrorAnswer {
  status: number;
  body: { error: { code: string; message: string; title?: string } };
}

/**
 * The answer of a plain HTTP route (tus, /media, ...) to an error it did not handle: 503 'try
 * again' while PostgreSQL or Redis is unavailable (core/dependency-errors.ts), 400 with
 * clear words for data the database refused, the status and message of a client error raised on
 * purpose (http-errors' `expose`, e.g. a malformed body), else 500 with generic words. The error
 * itself is for the log only.
 */
export function httpErrorAnswer(error: unknown): HttpErrorAnswer {
  if (isDependencyUnavailable(error)) {
    return { status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', message: SERVER_TEXTS.unavailable } } };
  }
  const badData = badDataMessage(error);
  if (badData) return { status: 400, body: { error: { code: 'BAD_REQUEST', message: badData, title: VALIDATION.validationErrorTitle } } };
  const http = error as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (
    http !== null &&
    typeof http === 'object' &&
    typeof http.status === 'number' &&
    http.status >= 400 &&
    http.status < 500 &&
    http.expose === true &&
    typeof http.message === 'string' &&
    databaseErrorOf(error) === null
  ) {
    const code = (STATUS_CODES[http.status] ?? 'Bad Request').toUpperCase().replace(/[^A-Z]+/g, '_');
    return { status: http.status, body: { error: { code, message: http.message } } };
  }
  return { status: 500, body: { error: { code: 'INTERNAL_SERVER_ERROR', message: SERVER_TEXTS.unexpected } } };
}
