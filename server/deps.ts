import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { DB } from './db/kysely';
import type { Queues } from './queues/queues';
import type { Realtime } from './realtime/realtime';

/** What every request and service may use; built once in server/app.ts. */
export interface AppDeps {
  config: Config;
  db: DB;
  redis: Redis;
  queues: Queues;
  log: Logger;
  realtime: Realtime;
}
