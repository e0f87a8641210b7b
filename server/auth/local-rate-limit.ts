import type { RateLimit, RateLimitResult } from './rate-limit';

/**
 * A limit while its Redis counters are out of reach (an outage): the same limit, counted in this
 * process's memory (fixed windows per key), so ordinary writes (sending a message, a like, a
 * comment) keep flowing instead of being refused for the whole outage. Each server copy counts on
 * its own, so with N copies a user may write up to N times the limit while Redis is away. Windows
 * that ended are dropped as they are met, and the map is emptied when it grows past `maxUsers`.
 */
export function localFixedWindow(limit: RateLimit, now: () => number = Date.now, maxUsers = 50_000) {
  const windows = new Map<string, { startedAt: number; count: number }>();
  const windowMs = limit.windowSeconds * 1000;
  return (id: string): RateLimitResult => {
    const t = now();
    let window = windows.get(id);
    if (!window || t - window.startedAt >= windowMs) {
      if (!window && windows.size >= maxUsers) windows.clear();
      window = { startedAt: t, count: 0 };
      windows.set(id, window);
    }
    window.count += 1;
    const allowed = window.count <= limit.points;
    const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((window.startedAt + windowMs - t) / 1000));
    return { allowed, retryAfterSeconds, counts: [window.count] };
  };
}

/** The in-memory counters limits fall back on while Redis is away, one per bucket (and side). */
const processWindows = new Map<string, (id: string) => RateLimitResult>();

/** Counts one attempt of `id` against `limit` in this process, under the counter `key` (a bucket). */
export function countLocally(key: string, limit: RateLimit, id: string): RateLimitResult {
  let hit = processWindows.get(key);
  if (!hit) processWindows.set(key, (hit = localFixedWindow(limit)));
  return hit(id);
}
