import type { Redis } from 'ioredis';
import { isCluster } from '../../core/redis';
import { EMAIL_CAP_PER_HOUR, PUSH_CAP_PER_HOUR } from '../../common/notifications';

const CAPS = { push: PUSH_CAP_PER_HOUR, email: EMAIL_CAP_PER_HOUR } as const;

/**
 * No flood (issue 28): each user gets at most CAPS[channel] notifications by a channel in a clock
 * hour. A notification counts once however many browsers it goes to, and again asking (a retried
 * job) does not count it twice: the hour's key is a set of notification ids. Over the cap it is
 * not sent by that channel; the row stays in the centre.
 */
export async function withinCap(redis: Redis, prefix: string, channel: keyof typeof CAPS, userId: string, notificationId: string, now: Date): Promise<boolean> {
  const hour = Math.floor(now.getTime() / 3_600_000);
  const key = `${prefix}:notify-cap:${channel}:${userId}:${hour}`;
  const [[, added], [, size]] = (await redis.multi().sadd(key, notificationId).scard(key).expire(key, 3600).exec()) as [[null, number], [null, number], unknown];
  if (added === 1 && size > CAPS[channel]) {
    await redis.srem(key, notificationId);
    return false;
  }
  return true;
}

/**
 * `withinCap` for many (user, notification) pairs in one round trip (a fan-out batch's pushes):
 * the same sets and the same rule, each pair counted in its user's hour. Returns the notification
 * ids over the cap (taken out of their sets again), which go by no push.
 */
export async function overCaps(redis: Redis, prefix: string, channel: keyof typeof CAPS, pairs: { userId: string; notificationId: string }[], now: Date): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const hour = Math.floor(now.getTime() / 3_600_000);
  const keyOf = (userId: string) => `${prefix}:notify-cap:${channel}:${userId}:${hour}`;
  let replies: [Error | null, unknown][];
  if (isCluster(redis)) {
    // a cluster refuses a MULTI over keys of several slots: one per user's hour there
    replies = (await Promise.all(pairs.map((p) => redis.multi().sadd(keyOf(p.userId), p.notificationId).scard(keyOf(p.userId)).expire(keyOf(p.userId), 3600).exec()))).flatMap((r) => r ?? []);
  } else {
    const multi = redis.multi();
    for (const p of pairs) multi.sadd(keyOf(p.userId), p.notificationId).scard(keyOf(p.userId)).expire(keyOf(p.userId), 3600);
    replies = (await multi.exec()) ?? [];
  }
  const over = pairs.filter((_, i) => (replies[i * 3]?.[1] as number) === 1 && (replies[i * 3 + 1]?.[1] as number) > CAPS[channel]);
  if (over.length > 0) {
    await Promise.all(over.map((p) => redis.srem(keyOf(p.userId), p.notificationId)));
  }
  return new Set(over.map((p) => p.notificationId));
}
