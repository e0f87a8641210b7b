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
  if (opts.commandTimeoutMs !== undefined) failFastWhileDown(redis);
  return redis;
}

/**
 * The app's connections stop waiting on a Redis known to be down. ioredis keeps a command sent
 * while it is reconnecting in its offline queue until a reconnect attempt fails (they are up to
 * 2 s apart) or the command times out (REDIS_COMMAND_TIMEOUT_MS), so during an outage every
 * command cost that long: a message sent then waited on five of them (its write budget, its
 * limit, its notification's queueing, typing and presence), 3-5 s. Once an attempt to connect has
 * failed (an error while the connection is not ready), commands are refused at once ("Stream isn't
 * writeable", core/dependency-errors.ts: Redis unavailable) until the connection is up again;
 * what needed them falls back as it does on a timeout (rate limits counted in memory, a job left to
 * its outbox row). A command sent in the moment the connection dropped still waits for that
 * first failed attempt (or its timeout). A connection still up whose Redis stopped answering is
 * not known down: its commands each wait for their timeout.
 */
function failFastWhileDown(redis: Redis): void {
  redis.on('error', () => {
    if (redis.status !== 'ready') redis.options.enableOfflineQueue = false;
  });
  // connected again: commands wait in the offline queue for the handshake, as before the outage
  redis.on('connect', () => {
    redis.options.enableOfflineQueue = true;
  });
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
