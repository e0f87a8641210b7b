import type { Redis } from 'ioredis';
import { isCluster } from '../../core/redis';
import { TYPING_TTL_MS } from '../../common/messages';

/**
 * Who is online, kept in Redis so every server copy agrees: per user a sorted set of their live
 * sockets, each scored with the moment it stops counting unless refreshed. A server copy that
 * dies leaves entries that simply expire (PRESENCE_TTL_MS), so nobody stays "online" forever.
 * Only `show_online_status` decides whether anyone else is told (domain/access/messaging.ts,
 * server/realtime/presence.ts); this file only keeps the facts.
 */
export const PRESENCE_TTL_MS = 90_000;
/** how often a server copy refreshes the entries of its sockets (well inside the TTL) */
export const PRESENCE_REFRESH_MS = 30_000;

const presenceKey = (prefix: string, userId: string) => `${prefix}:presence:${userId}`;
const typingKey = (prefix: string, from: string, to: string) => `${prefix}:typing:${from}:${to}`;

/** Counts one socket of the user; true when the user was offline before it. */
export async function socketOnline(redis: Redis, prefix: string, userId: string, socketId: string, now = Date.now()): Promise<boolean> {
  const key = presenceKey(prefix, userId);
  const reply = await redis
    .multi()
    .zremrangebyscore(key, '-inf', now)
    .zcard(key)
    .zadd(key, now + PRESENCE_TTL_MS, socketId)
    .pexpire(key, PRESENCE_TTL_MS)
    .exec();
  return Number(reply?.[1]?.[1] ?? 0) === 0;
}

/** Stops counting one socket; true when it was the user's last one (the user is offline now). */
export async function socketOffline(redis: Redis, prefix: string, userId: string, socketId: string, now = Date.now()): Promise<boolean> {
  const key = presenceKey(prefix, userId);
  const reply = await redis.multi().zrem(key, socketId).zremrangebyscore(key, '-inf', now).zcard(key).exec();
  return Number(reply?.[2]?.[1] ?? 0) === 0;
}

/** Refreshes the entries of these sockets (one round trip for a whole server copy). */
export async function refreshSockets(redis: Redis, prefix: string, sockets: { userId: string; socketId: string }[], now = Date.now()) {
  if (sockets.length === 0) return;
  // a cluster refuses a MULTI over keys of several slots: one per user's key there
  if (isCluster(redis)) {
    await Promise.all(sockets.map(({ userId, socketId }) => redis.multi().zadd(presenceKey(prefix, userId), now + PRESENCE_TTL_MS, socketId).pexpire(presenceKey(prefix, userId), PRESENCE_TTL_MS).exec()));
    return;
  }
  const multi = redis.multi();
  for (const { userId, socketId } of sockets) {
    const key = presenceKey(prefix, userId);
    multi.zadd(key, now + PRESENCE_TTL_MS, socketId).pexpire(key, PRESENCE_TTL_MS);
  }
  await multi.exec();
}

/** Of these users, the ones with a live socket anywhere (one round trip). */
export async function onlineUsers(redis: Redis, prefix: string, userIds: string[], now = Date.now()): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  if (isCluster(redis)) {
    const counts = await Promise.all(userIds.map((id) => redis.zcount(presenceKey(prefix, id), now, '+inf')));
    return new Set(userIds.filter((_, i) => counts[i]! > 0));
  }
  const multi = redis.multi();
  for (const id of userIds) multi.zcount(presenceKey(prefix, id), now, '+inf');
  const reply = (await multi.exec()) ?? [];
  return new Set(userIds.filter((_, i) => Number(reply[i]?.[1] ?? 0) > 0));
}

/** Notes that `from` is typing to `to` for TYPING_TTL_MS (it expires by itself). */
export async function noteTyping(redis: Redis, prefix: string, from: string, to: string): Promise<void> {
  await redis.set(typingKey(prefix, from, to), '1', 'PX', TYPING_TTL_MS);
}

/** A message was sent: the typing note ends with it. */
export async function clearTyping(redis: Redis, prefix: string, from: string, to: string): Promise<void> {
  await redis.del(typingKey(prefix, from, to));
}
