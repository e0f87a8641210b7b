import { TRPCError } from '@trpc/server';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../common/limits';
import { AUTH_TEXTS } from '../../common/texts';
import { createRedis } from '../../core/redis';
import { RetryAfter } from '../trpc/errors';
import { hitRateLimit, limitOrThrow, rateLimitKey, resetRateLimits } from './rate-limit';

let redis: Redis;
const prefix = `test-rl-${randomUUID().slice(0, 8)}`;

beforeAll(() => {
  redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  await resetRateLimits(redis, prefix);
  redis.disconnect();
});

async function thrown(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe('limitOrThrow (real Redis)', () => {
  it('allows 10 attempts a minute and refuses the 11th with 429 and the seconds left', async () => {
    const ids = ['ip:10.0.0.1', 'email:a@example.com'];
    for (let i = 0; i < RATE_LIMITS.auth.points; i++) await limitOrThrow(redis, prefix, 'signin', ids);
    const error = await thrown(limitOrThrow(redis, prefix, 'signin', ids));
    expect(error.code).toBe('TOO_MANY_REQUESTS');
    expect(error.message).toBe(AUTH_TEXTS.tooManyAttempts);
    expect(error.cause).toBeInstanceOf(RetryAfter);
    const seconds = (error.cause as RetryAfter).seconds;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(RATE_LIMITS.auth.windowSeconds);
  });

  it('keys live under the app prefix and expire with the window', async () => {
    await limitOrThrow(redis, prefix, 'signup', ['ip:10.0.0.2']);
    const key = rateLimitKey(prefix, 'signup', 'ip:10.0.0.2');
    expect(key).toBe(`${prefix}:rl:signup:ip:10.0.0.2`);
    expect(await redis.get(key)).toBe('1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RATE_LIMITS.auth.windowSeconds * 1000);
  });

  it('limits per IP across accounts and per account across IPs', async () => {
    for (let i = 0; i < 10; i++) await limitOrThrow(redis, prefix, 'ipwide', ['ip:10.0.0.3', `email:user${i}@example.com`]);
    expect((await thrown(limitOrThrow(redis, prefix, 'ipwide', ['ip:10.0.0.3', 'email:fresh@example.com']))).code).toBe(
      'TOO_MANY_REQUESTS',
    );
    // another IP is not affected
    await limitOrThrow(redis, prefix, 'ipwide', ['ip:10.0.0.4', 'email:fresh2@example.com']);

    for (let i = 0; i < 10; i++) await limitOrThrow(redis, prefix, 'account', [`ip:10.1.0.${i}`, 'email:victim@example.com']);
    expect((await thrown(limitOrThrow(redis, prefix, 'account', ['ip:10.2.0.1', 'email:victim@example.com']))).code).toBe(
      'TOO_MANY_REQUESTS',
    );
  });

  it('buckets are independent', async () => {
    for (let i = 0; i < 10; i++) await limitOrThrow(redis, prefix, 'b1', ['ip:10.0.0.5']);
    await expect(limitOrThrow(redis, prefix, 'b1', ['ip:10.0.0.5'])).rejects.toBeInstanceOf(TRPCError);
    await limitOrThrow(redis, prefix, 'b2', ['ip:10.0.0.5']);
  });

  it('a new window starts after the old one ends', async () => {
    const limit = { points: 2, windowSeconds: 1 };
    expect((await hitRateLimit(redis, prefix, 'short', ['ip:x'], limit)).allowed).toBe(true);
    expect((await hitRateLimit(redis, prefix, 'short', ['ip:x'], limit)).allowed).toBe(true);
    const third = await hitRateLimit(redis, prefix, 'short', ['ip:x'], limit);
    expect(third).toMatchObject({ allowed: false, retryAfterSeconds: 1, counts: [3] });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await hitRateLimit(redis, prefix, 'short', ['ip:x'], limit)).toMatchObject({ allowed: true, counts: [1] });
  });

  it('concurrent attempts are counted exactly (atomic script)', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, () => hitRateLimit(redis, prefix, 'burst', ['ip:10.9.9.9'])),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(RATE_LIMITS.auth.points);
    expect(results.map((r) => r.counts[0]).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('resetRateLimits removes only this prefix', async () => {
    const other = `${prefix}-other`;
    await limitOrThrow(redis, other, 'x', ['ip:1']);
    await limitOrThrow(redis, prefix, 'x', ['ip:1']);
    expect(await resetRateLimits(redis, prefix)).toBeGreaterThan(0);
    expect(await redis.exists(rateLimitKey(prefix, 'x', 'ip:1'))).toBe(0);
    expect(await redis.exists(rateLimitKey(other, 'x', 'ip:1'))).toBe(1);
    await resetRateLimits(redis, other);
  });
});
