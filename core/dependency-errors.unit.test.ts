import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DependencyTimeoutError, throttledReporter, unavailableDependency, withTimeout } from './dependency-errors';

function databaseError(code: string, message = 'x') {
  const error = new pg.DatabaseError(message, 0, 'error');
  error.code = code;
  return error;
}

describe('unavailableDependency', () => {
  it('names PostgreSQL and Redis going away, along the causes, and nothing else', () => {
    expect(unavailableDependency(databaseError('57P01', 'terminating connection due to administrator command'))).toBe('postgres');
    expect(unavailableDependency(databaseError('55000', 'database "x" is not currently accepting connections'))).toBe('postgres');
    expect(unavailableDependency(new Error('Connection terminated unexpectedly'))).toBe('postgres');
    expect(unavailableDependency(new Error('timeout exceeded when trying to connect'))).toBe('postgres');
    expect(unavailableDependency(new Error('Command timed out'))).toBe('redis');
    expect(unavailableDependency(Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' }))).toBe('redis');
    expect(unavailableDependency(new Error('wrapped', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }))).toBe('network');
    expect(unavailableDependency(new DependencyTimeoutError('redis', 'queueing', 10))).toBe('redis');
    // bugs and bad data are not outages
    expect(unavailableDependency(databaseError('23505', 'duplicate key'))).toBeNull();
    expect(unavailableDependency(databaseError('55000', 'object not in prerequisite state'))).toBeNull();
    expect(unavailableDependency(new TypeError('x is undefined'))).toBeNull();
    expect(unavailableDependency('not an error')).toBeNull();
  });
});

describe('withTimeout', () => {
  it('gives up after the time with a DependencyTimeoutError, and passes a quicker answer through', async () => {
    await expect(withTimeout(new Promise(() => {}), 20, 'redis', 'queueing')).rejects.toBeInstanceOf(DependencyTimeoutError);
    await expect(withTimeout(Promise.resolve(7), 1_000, 'redis', 'queueing')).resolves.toBe(7);
  });
});

describe('throttledReporter', () => {
  it('reports the first failure, then one per period with how many were left out', () => {
    const reports: [unknown, number][] = [];
    const report = throttledReporter((error, suppressed) => reports.push([error, suppressed]), 60_000);
    for (let i = 0; i < 5; i++) report(i);
    expect(reports).toEqual([[0, 0]]);
  });
});
