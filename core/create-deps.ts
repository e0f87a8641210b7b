import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { createDb } from './db/kysely';
import { isDependencyUnavailable, throttledReporter } from './dependency-errors';
import type { AppDeps } from './deps';
import { createLogger } from './logger';
import { createPaymentProvider } from './payments';
import type { PaymentProvider } from './payments/provider';
import { createQueues } from './queues/queues';
import { createRealtime } from './realtime/emitter';
import { clusterNodesOf, createRedis, queuePrefix } from './redis';
import { createSessionCache, listenForForgets } from './sessions/session-cache';
import { createStorage } from './storage';

export interface OwnedDeps extends AppDeps {
  /** closes the session cache's subscriber, the queues, Redis and the pool, in that order */
  close(): Promise<void>;
}

export interface CreateDepsOptions {
  /** called with the SQL of every query the pool runs (tests count queries with it) */
  onQuery?: (sql: string) => void;
  /**
   * Tests only: the provider instead of the one the settings choose (e.g. failingProvider()), and
   * a clock instead of the system's (fixedClock(), which the test then moves). startTestServer
   * passes its `payments` and `clock` options here; a test that needs another provider or time for
   * one call passes `{ ...app.deps, payments, clock }`.
   */
  payments?: PaymentProvider;
  clock?: Clock;
  /**
   * Whether the session cache listens for the forgets of every copy (a Redis subscriber of its
   * own) and so caches: on by default; off for a process that resolves no cookies (the worker).
   */
  sessionCache?: boolean;
}

/**
 * The process's connections, each of which survives its service going away: errors are logged
 * (at most one line per connection kind every 10 s), commands fail fast while the service is
 * down (core/dependency-errors.ts makes them 503s), and every connection comes back by itself.
 */
export function createDeps(config: Config, name = 'server', opts: CreateDepsOptions = {}): OwnedDeps {
  const log = createLogger(config, name);
  const reporter = (what: string) =>
    throttledReporter((err, suppressed) => log.warn({ err, suppressed }, `${what}: connection error (reconnecting by itself)`));
  const db = createDb(config.DATABASE_URL, 10, {
    onQuery: opts.onQuery,
    onConnectionError: reporter('PostgreSQL'),
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  const redisOptions = { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, clusterNodes: clusterNodesOf(config) };
  const redis = createRedis(config.REDIS_URL, { ...redisOptions, onError: reporter('Redis') });
  // the producers' connection (Bull Board and /metrics read through it too): never a blocking command
  const queueConnection = createRedis(config.REDIS_URL, { ...redisOptions, onError: reporter('Redis (queues)') });
  const queues = createQueues(queueConnection, queuePrefix(config), {
    addTimeoutMs: 2 * config.REDIS_COMMAND_TIMEOUT_MS,
    // a queue re-emits its connection's errors, reported above already
    onError: (err) => {
      if (!isDependencyUnavailable(err)) log.error({ err }, 'queue error');
    },
  });
  const realtime = createRealtime(
    redis,
    config.REDIS_PREFIX,
    throttledReporter((err, suppressed) => log.warn({ err, suppressed }, 'realtime event not sent (Redis unavailable)')),
  );
  const storage = createStorage(config);
  const sessionCache = createSessionCache();
  const forgets = opts.sessionCache === false ? null : listenForForgets(sessionCache, { redis, realtime, config, log });
  return {
    config,
    log,
    db,
    redis,
    queues,
    realtime,
    storage,
    payments: opts.payments ?? createPaymentProvider(config),
    clock: opts.clock ?? systemClock,
    sessionCache,
    async close() {
      await forgets?.close();
      await queues.close();
      queueConnection.disconnect();
      await redis.quit().catch(() => redis.disconnect());
      await db.destroy();
    },
  };
}
