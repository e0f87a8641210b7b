import { Cluster, Redis, type RedisOptions } from 'ioredis';

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
  /**
   * A Redis Cluster's nodes to start from (REDIS_CLUSTER_NODES, `clusterNodesOf`): the connection
   * is then an ioredis Cluster, which finds the masters and sends each key to its slot's. Typed as
   * a Redis: the commands the app sends are the same, and every place that sends several keys in
   * one command, script or MULTI keeps them in one slot (docs/operations.md, "Redis Cluster").
   */
  clusterNodes?: readonly ClusterNode[] | null;
}

export interface ClusterNode {
  host: string;
  port: number;
}

/** REDIS_CLUSTER_NODES (`host:port,host:port`) as nodes; null when unset (one Redis at REDIS_URL, the default). */
export function clusterNodesOf(config: { REDIS_CLUSTER_NODES?: string | undefined }): ClusterNode[] | null {
  const nodes = (config.REDIS_CLUSTER_NODES ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => {
      const at = n.lastIndexOf(':');
      return { host: n.slice(0, at), port: Number(n.slice(at + 1)) };
    });
  return nodes.length ? nodes : null;
}

/**
 * BullMQ's key prefix. On a cluster every key of a queue must be in one slot (its scripts touch
 * several), so the prefix is a hash tag, `{creator}`: all the queues' keys hash by it alone. One
 * Redis keeps the plain prefix, so the keys of a running deployment stay where they are.
 */
export function queuePrefix(config: { REDIS_PREFIX: string; REDIS_CLUSTER_NODES?: string | undefined }): string {
  return clusterNodesOf(config) ? `{${config.REDIS_PREFIX}}` : config.REDIS_PREFIX;
}

/** Whether the connection is an ioredis Cluster (createRedis with `clusterNodes`). */
export const isCluster = (redis: Redis): boolean => (redis as unknown as { isCluster?: boolean }).isCluster === true;

/** Another connection to the same Redis or cluster, with these options changed (a subscriber's). */
export function duplicateRedis(redis: Redis, overrides: Partial<RedisOptions> = {}): Redis {
  if (!isCluster(redis)) return redis.duplicate(overrides);
  const cluster = redis as unknown as Cluster;
  return cluster.duplicate(undefined, { ...cluster.options, redisOptions: { ...cluster.options.redisOptions, ...overrides } }) as unknown as Redis;
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
  const redis = opts.clusterNodes?.length ? clusterOf(url, opts.clusterNodes, options) : new Redis(url, { lazyConnect: false, ...options });
  redis.on('error', opts.onError ?? (() => {}));
  if (opts.commandTimeoutMs !== undefined) failFastWhileDown(redis);
  return redis;
}

/** A cluster whose nodes are reached as REDIS_URL says (its user, password, TLS), with the options of each connection. */
function clusterOf(url: string, nodes: readonly ClusterNode[], options: RedisOptions): Redis {
  const { username, password, protocol } = new URL(url);
  const { enableOfflineQueue, ...perNode } = options;
  const cluster = new Cluster([...nodes], {
    lazyConnect: false,
    enableOfflineQueue,
    redisOptions: {
      ...perNode,
      ...(username && { username: decodeURIComponent(username) }),
      ...(password && { password: decodeURIComponent(password) }),
      ...(protocol === 'rediss:' && { tls: {} }),
    },
  });
  return cluster as unknown as Redis;
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
