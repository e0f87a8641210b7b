import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnectionOptions {
  /**
   * A BullMQ worker's connection: it blocks waiting for jobs, so a command must never be given
   * up on (maxRetriesPerRequest: null, no command timeout); BullMQ retries after a reconnect.
   */
  forBullmq?: boolean;
  /**
   * The app's connections (rate limits, queueing jobs, realtime events, readiness): a command
   * Redis does not answer in this long fails instead of waiting for Redis to come back, so a
   * request that needs Redis answers 503 at once during an outage. Commands sent before the
   * first connect (or during a reconnect) wait in the offline queue for at most as long.
   */
  commandTimeoutMs?: number;
  /** told of every connection error (ioredis would throw an 'error' event nobody listens to) */
  onError?: (error: Error) => void;
}

/**
 * Every connection reconnects by itself (ioredis: 50 ms more per attempt, at most 2 s apart), so
 * everything works again once Redis is back, with no restart.
 */
export function createRedis(url: string, opts: RedisConnectionOptions = {}): Redis {
  const options: RedisOptions = opts.forBullmq
    ? { maxRetriesPerRequest: null, enableOfflineQueue: true }
    : {
        // one reconnect attempt, then the commands waiting for it fail; commandTimeout bounds the rest
        maxRetriesPerRequest: opts.commandTimeoutMs !== undefined ? 1 : 3,
        enableOfflineQueue: true,
        ...(opts.commandTimeoutMs !== undefined && { commandTimeout: opts.commandTimeoutMs, connectTimeout: Math.max(2_000, opts.commandTimeoutMs) }),
      };
  const redis = new Redis(url, { lazyConnect: false, ...options });
  redis.on('error', opts.onError ?? (() => {}));
  return redis;
}

/**
 * Closes a subscriber connection without leaving its resubscription unanswered: ioredis re-sends a
 * subscriber's subscriptions on each reconnect and drops their promises, so cutting the link
 * before Redis has answered them turns each into an unhandled rejection. A PING queued behind them
 * answers once they have been; it is waited for at most `waitMs` when the link is up.
 */
export async function disconnectSubscriber(sub: Redis, waitMs = 1_000): Promise<void> {
  if (sub.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const pinged = sub.ping().then(
      () => undefined,
      () => undefined,
    );
    await Promise.race([pinged, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }
  sub.disconnect();
}
