import type { Redis } from 'ioredis';
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
