import type { Config } from './config';
import { createDb } from './db/kysely';
import type { AppDeps } from './deps';
import { createLogger } from './logger';
import { createQueues } from './queues/queues';
import { createRealtime } from './realtime/emitter';
import { createRedis } from './redis';

export interface OwnedDeps extends AppDeps {
  /** closes the queues, Redis and the pool, in that order */
  close(): Promise<void>;
}

export function createDeps(config: Config, name = 'server'): OwnedDeps {
  const log = createLogger(config, name);
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(config.REDIS_URL);
  const queueConnection = createRedis(config.REDIS_URL, { forBullmq: true });
  const queues = createQueues(queueConnection, config.REDIS_PREFIX);
  const realtime = createRealtime(redis, config.REDIS_PREFIX);
  return {
    config,
    log,
    db,
    redis,
    queues,
    realtime,
    async close() {
      await queues.close();
      queueConnection.disconnect();
      await redis.quit().catch(() => redis.disconnect());
      await db.destroy();
    },
  };
}
