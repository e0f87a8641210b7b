import { Redis } from 'ioredis';
import type { Config } from './config';
import { clusterNodesOf } from './redis';
import { assertPostgresReachable } from './db/migrate';
import { ServiceUnreachable } from './service-unreachable';

export { ServiceUnreachable };

function hostPortOf(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.hostname}:${url.port || 6379}`;
}

/** One clear line when PostgreSQL or Redis cannot be reached, instead of a stack trace. */
export async function assertServicesReachable(config: Pick<Config, 'DATABASE_URL' | 'REDIS_URL'> & Partial<Pick<Config, 'REDIS_CLUSTER_NODES'>>): Promise<void> {
  await assertPostgresReachable(config.DATABASE_URL);
  // a cluster: its first node named, reached as REDIS_URL says (user, password, TLS)
  const node = clusterNodesOf(config)?.[0];
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...(node && { host: node.host, port: node.port }),
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new ServiceUnreachable(
      `Redis is not reachable at ${node ? `${node.host}:${node.port}` : hostPortOf(config.REDIS_URL)}: start it (docker compose up -d redis) or set ${node ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL'}`,
    );
  } finally {
    redis.disconnect();
  }
}
