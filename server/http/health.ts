import { Router } from 'express';
import { sql } from 'kysely';
import type { AppDeps } from '../../core/deps';

/** /healthz: the process is up. /readyz: it can reach PostgreSQL and Redis (load balancers use this). */
export function healthRoutes(deps: Pick<AppDeps, 'db' | 'redis'>): Router {
  const routes = Router();
  routes.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  routes.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      sql`select 1`.execute(deps.db).then(() => 'ok', (e: Error) => e.message),
      deps.redis.ping().then(() => 'ok', (e: Error) => e.message),
    ]);
    const ready = postgres === 'ok' && redis === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', postgres, redis });
  });
  return routes;
}
