import { TRPCError } from '@trpc/server';

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

export class RetryAfter extends Error {
  constructor(public readonly seconds: number) {
    super(`retry after ${seconds}s`);
  }
}

export function tooManyRequests(message: string, retryAfterSeconds: number) {
  return new TRPCError({ code: 'TOO_MANY_REQUESTS', message, cause: new RetryAfter(retryAfterSeconds) });
}
