import { Redis } from 'ioredis';
import pg from 'pg';
import type { Config } from './config';

export class ServiceUnreachable extends Error {}

function hostOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)}`;
}

/** One clear line when PostgreSQL or Redis cannot be reached, instead of a stack trace. */
export async function assertServicesReachable(config: Pick<Config, 'DATABASE_URL' | 'REDIS_URL'>): Promise<void> {
  const server = new URL(config.DATABASE_URL);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch {
    throw new ServiceUnreachable(
      `PostgreSQL is not reachable at ${hostOf(config.DATABASE_URL)}: start it (docker compose up -d postgres) or set DATABASE_URL`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    throw new ServiceUnreachable(
      `Redis is not reachable at ${hostOf(config.REDIS_URL)}: start it (docker compose up -d redis) or set REDIS_URL`,
    );
  } finally {
    redis.disconnect();
  }
}
