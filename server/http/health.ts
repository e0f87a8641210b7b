import { Router } from 'express';
import { sql } from 'kysely';
import type { AppDeps } from '../../core/deps';
import { withTimeout } from '../../core/dependency-errors';

/** A readiness probe answers within this long whatever the services do. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * /healthz: the process is up and serving (liveness: it stays 200 while PostgreSQL or Redis is
 * down, since a restart would not bring them back). /readyz: it can reach PostgreSQL and Redis
 * (load balancers send traffic only while 200); 503 names what is down:
 * `{ status: 'unavailable', postgres: 'ok', redis: 'unavailable', down: ['redis'] }`.
 */
export function healthRoutes(deps: Pick<AppDeps, 'db' | 'redis'>): Router {
  const routes = Router();
  routes.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  routes.get('/readyz', async (_req, res) => {
    const check = (work: Promise<unknown>, dependency: 'postgres' | 'redis') =>
      // the error's own words stay in the server's log: this answer is public
      withTimeout(work, CHECK_TIMEOUT_MS, dependency, 'readiness check').then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      );
    const [postgres, redis] = await Promise.all([check(sql`select 1`.execute(deps.db), 'postgres'), check(deps.redis.ping(), 'redis')]);
    const down = [...(postgres === 'ok' ? [] : ['postgres']), ...(redis === 'ok' ? [] : ['redis'])];
    res
      .status(down.length ? 503 : 200)
      .set('Cache-Control', 'no-store')
      .json(down.length ? { status: 'unavailable', postgres, redis, down } : { status: 'ok', postgres, redis });
  });
  return routes;
}
