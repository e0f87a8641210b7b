import type { Redis } from 'ioredis';
import type { Clock } from './clock';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { DB } from './db/kysely';
import type { PaymentProvider } from './payments/provider';
import type { Queues } from './queues/queues';
import type { Realtime } from './realtime/realtime';
import type { SessionCache } from './sessions/session-cache';
import type { Storage } from './storage/storage';

/** What every request, service and job may use; built once per process by createDeps (create-deps.ts). */
export interface AppDeps {
  config: Config;
  db: DB;
  redis: Redis;
  queues: Queues;
  log: Logger;
  realtime: Realtime;
  /** media files (disk or S3); served only through the authorised media route */
  storage: Storage;
  /** the payment provider the settings choose (Stripe or the built-in one); providerNamed (core/payments) finds the one a ledger row names */
  payments: PaymentProvider;
  /** the business clock: whatever decides money or expiry (renewals, periods, grace, expiring links) reads the time here */
  clock: Clock;
  /**
   * the sessions this process resolved a moment ago (server/auth/resolve-session.ts reads and fills
   * it); a server's hears every copy's forgets through Redis, a worker's stays off and caches nothing
   */
  sessionCache: SessionCache;
}
