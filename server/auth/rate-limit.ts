import { TRPCError } from '@trpc/server';
import type { Cluster, Redis } from 'ioredis';
import { RATE_LIMITS } from '../../common/limits';
import { AUTH_TEXTS, SERVER_TEXTS } from '../../common/texts';
import { isDependencyUnavailable } from '../../core/dependency-errors';
import { isCluster } from '../../core/redis';
import { tooManyRequests } from '../trpc/errors';
import { countLocally } from './local-rate-limit';

export interface RateLimit {
  /** attempts allowed per window */
  points: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** whole seconds until the fullest exceeded window resets (0 when allowed) */
  retryAfterSeconds: number;
  /** attempts counted so far in each key's window, in the order of `ids` */
  counts: number[];
}

/**
 * Fixed window per key: INCR, and PEXPIRE when the key is new (or lost its expiry), for every key
 * in one atomic script so the IP and the account windows move together. Returns count, ttl pairs.
 */
const SCRIPT = `
local out = {}
local window = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if n == 1 or ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = window
  end
  out[#out + 1] = n
  out[#out + 1] = ttl
end
return out
`;

export function rateLimitKey(prefix: string, bucket: string, id: string): string {
  return `${prefix}:rl:${bucket}:${id}`;
}

/** Counts one attempt against every id (e.g. `ip:1.2.3.4`, `email:a@b.c`) of the bucket. */
export async function hitRateLimit(
  redis: Redis,
  prefix: string,
  bucket: string,
  ids: string[],
  limit: RateLimit = RATE_LIMITS.auth,
): Promise<RateLimitResult> {
  if (ids.length === 0) return { allowed: true, retryAfterSeconds: 0, counts: [] };
  const keys = ids.map((id) => rateLimitKey(prefix, bucket, id));
  const windowMs = limit.windowSeconds * 1000;
  // a cluster refuses a script over keys of several slots: one script per key there (each window still moves atomically)
  const reply = isCluster(redis)
    ? (await Promise.all(keys.map((key) => redis.eval(SCRIPT, 1, key, windowMs) as Promise<number[]>))).flat()
    : ((await redis.eval(SCRIPT, keys.length, ...keys, windowMs)) as number[]);
  const counts: number[] = [];
  let retryAfterMs = 0;
  for (let i = 0; i < keys.length; i++) {
    const count = Number(reply[i * 2]);
    const ttlMs = Number(reply[i * 2 + 1]);
    counts.push(count);
    if (count > limit.points) retryAfterMs = Math.max(retryAfterMs, ttlMs);
  }
  const allowed = counts.every((c) => c <= limit.points);
  return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)), counts };
}

/**
 * Counts the attempt and throws TOO_MANY_REQUESTS (HTTP 429, `data.retryAfterSeconds`) with the
 * product's text once any of the ids went over the limit in the current window, and
 * SERVICE_UNAVAILABLE (503 'Service temporarily unavailable. Please try again.') when the
 * attempt cannot be counted.
 *   await limitOrThrow(ctx.redis, ctx.config.REDIS_PREFIX, 'signin', [`ip:${ip}`, `email:${email}`])
 */
export async function limitOrThrow(
  redis: Redis,
  prefix: string,
  bucket: string,
  ids: string[],
  limit: RateLimit = RATE_LIMITS.auth,
  options: LimitOptions = {},
): Promise<void> {
  let result: RateLimitResult;
  try {
    result = await hitRateLimit(redis, prefix, bucket, ids, limit);
  } catch (error) {
    // Fails closed by default: with the counters out of reach (Redis down) nobody gets unlimited
    // attempts. The app's Redis connection gives up within REDIS_COMMAND_TIMEOUT_MS, so this is quick.
    if (options.whileRedisIsAway !== 'count-locally' || !isDependencyUnavailable(error)) {
      throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: SERVER_TEXTS.unavailable, cause: error });
    }
    result = combine(ids.map((id) => countLocally(bucket, limit, id)));
  }
  if (!result.allowed) throw tooManyRequests(options.message ?? AUTH_TEXTS.tooManyAttempts, result.retryAfterSeconds);
}

export interface LimitOptions {
  /** the 429's words (default: the sign-in's 'Too many attempts…') */
  message?: string;
  /**
   * 'refuse' (default): 503 while the Redis counters are out of reach. 'count-locally': ordinary
   * writes (sending a message) are counted in this process's memory instead (local-rate-limit.ts).
   */
  whileRedisIsAway?: 'refuse' | 'count-locally';
}

function combine(results: RateLimitResult[]): RateLimitResult {
  const allowed = results.every((r) => r.allowed);
  return { allowed, retryAfterSeconds: Math.max(0, ...results.map((r) => r.retryAfterSeconds)), counts: results.flatMap((r) => r.counts) };
}

/** Removes every rate-limit counter under the prefix (tests, and an operator unlocking accounts). */
export async function resetRateLimits(redis: Redis, prefix: string): Promise<number> {
  // SCAN walks one node: on a cluster, each master's keys, removed one by one (they are in many slots)
  const nodes = isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
  let removed = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:rl:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) removed += (await Promise.all(keys.map((key) => redis.del(key)))).reduce((a, b) => a + b, 0);
    } while (cursor !== '0');
  }
  return removed;
}
