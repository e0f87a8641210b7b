import pg from 'pg';

/**
 * Errors that mean PostgreSQL or Redis is not there right now (stopped, restarting, cut off, too
 * slow), as opposed to a bug or bad data: the request gets 503 'Service temporarily unavailable.
 * Please try again.' instead of a 500, and the same request works again once the service is back.
 */

/** Something the app waited on (a Redis command, a queue add) for longer than it allows. */
export class DependencyTimeoutError extends Error {
  override readonly name = 'DependencyTimeoutError';
  constructor(readonly dependency: 'postgres' | 'redis', what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
  }
}

/** SQLSTATE classes and codes of a connection that failed or a server that is going away. */
const PG_UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '08000', '08001', '08003', '08004', '08006', '08007']);
const PG_CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Client was closed and is not queryable',
];
const REDIS_MESSAGES = ['Command timed out', "Stream isn't writeable", 'Connection is closed', 'Reached the max retries per request limit'];
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Which service `error` (or one of its causes) says is unavailable; null for any other error. */
export function unavailableDependency(error: unknown): 'postgres' | 'redis' | 'network' | null {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 6; depth += 1) {
    if (current instanceof DependencyTimeoutError) return current.dependency;
    if (current instanceof pg.DatabaseError) {
      if (current.code && PG_UNAVAILABLE_CODES.has(current.code)) return 'postgres';
      // 55000 with these words: the database is closed to connections (ALLOW_CONNECTIONS false, being dropped)
      if (current.code === '55000' && current.message.includes('not currently accepting connections')) return 'postgres';
    } else {
      const message = current.message;
      if (current.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((m) => message.includes(m))) return 'redis';
      if (PG_CLIENT_MESSAGES.some((m) => message.includes(m))) return 'postgres';
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'network';
    }
    current = current.cause ?? (current instanceof AggregateError ? current.errors[0] : undefined);
  }
  return null;
}

export const isDependencyUnavailable = (error: unknown) => unavailableDependency(error) !== null;

/** `promise`, or a DependencyTimeoutError after `ms` (the work itself is not stopped: its own timeouts end it). */
export function withTimeout<T>(promise: Promise<T>, ms: number, dependency: 'postgres' | 'redis', what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeoutError(dependency, what, ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Logs the first of a run of the same failure and then at most one line per `everyMs` with how
 * many were left out: a Redis outage makes every connection report every reconnect attempt.
 */
export function throttledReporter(report: (error: unknown, suppressed: number) => void, everyMs = 10_000) {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error: unknown) => {
    const now = Date.now();
    if (now - lastAt < everyMs) {
      suppressed += 1;
      return;
    }
    lastAt = now;
    report(error, suppressed);
    suppressed = 0;
  };
}
