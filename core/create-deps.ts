import type { Config } from './config';
import { createDb } from './db/kysely';
import type { AppDeps } from './deps';
import { createLogger } from './logger';
import { createQueues } from './queues/queues';
import { createRealtime } from './realtime/emitter';
import { createRedis } from './redis';
import { createStorage } from './storage';

export interface OwnedDeps extends AppDeps {
  /** closes the queues, Redis and the pool, in that order */
  close(): Promise<void>;
}

export interface CreateDepsOptions {
  /** called with the SQL of every query the pool runs (tests count queries with it) */
  onQuery?: (sql: string) => void;
}

export function createDeps(config: Config, name = 'server', opts: CreateDepsOptions = {}): OwnedDeps {
  const log = createLogger(config, name);
  const db = createDb(config.DATABASE_URL, 10, opts.onQuery);
  const redis = createRedis(config.REDIS_URL);
  const queueConnection = createRedis(config.REDIS_URL, { forBullmq: true });
  const queues = createQueues(queueConnection, config.REDIS_PREFIX);
  const realtime = createRealtime(redis, config.REDIS_PREFIX);
  const storage = createStorage(config);
  return {
    config,
    log,
    db,
    redis,
    queues,
    realtime,
    storage,
    async close() {
      await queues.close();
      queueConnection.disconnect();
      await redis.quit().catch(() => redis.disconnect());
      await db.destroy();
    },
  };
}
