import { Redis } from 'ioredis';

/** BullMQ needs maxRetriesPerRequest: null on connections its workers block on. */
export function createRedis(url: string, opts: { forBullmq?: boolean } = {}): Redis {
  return new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: opts.forBullmq ? null : 3,
    enableOfflineQueue: true,
  });
}
