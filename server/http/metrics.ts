import type { RequestHandler } from 'express';
import { Router } from 'express';
import type { Registry } from 'prom-client';
import type { AppDeps } from '../../core/deps';
import { dataExportsRegistry, httpRequestDuration, outboxRegistry, queueDepthRegistry, reconciliationRegistry, renderMetrics } from '../../core/metrics';
import { hasMetricsToken } from '../../core/metrics-token';
import { sessionUserOf } from './session-user';

/** GET /metrics (Prometheus text): for a scraper with METRICS_TOKEN or an admin's session; else 401/403. */
export function metricsRoutes(deps: AppDeps): Router {
  const router = Router();
  let depths: Registry[] | null = null;
  router.get('/metrics', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!hasMetricsToken(req.headers.authorization, deps.config.METRICS_TOKEN)) {
      const user = await sessionUserOf(deps, req, res);
      if (user?.role !== 'admin') {
        if (!user) res.setHeader('WWW-Authenticate', 'Bearer');
        res.status(user ? 403 : 401).json({ error: { code: user ? 'FORBIDDEN' : 'UNAUTHORIZED', message: 'Admins only' } });
        return;
      }
    }
    depths ??= [queueDepthRegistry(deps.queues), outboxRegistry(deps.db), dataExportsRegistry(deps.db), reconciliationRegistry(deps.db)];
    const { contentType, body } = await renderMetrics(...depths);
    res.setHeader('Content-Type', contentType);
    res.send(body);
  });
  return router;
}

/**
 * Times every request into `http_request_duration_seconds{method,route,status}`. Routes are the
 * app's own patterns (never raw URLs, which would make a series per post id); a tRPC call is
 * labelled with its procedure when the router has it.
 */
export function httpMetrics(isProcedure: (name: string) => boolean): RequestHandler {
  return (req, res, next) => {
    const end = httpRequestDuration.startTimer();
    res.once('finish', () => end({ method: req.method, route: routeLabel(req.originalUrl ?? req.url, isProcedure), status: String(res.statusCode) }));
    next();
  };
}

export function routeLabel(url: string, isProcedure: (name: string) => boolean): string {
  const pathname = url.split('?')[0] ?? '';
  if (pathname.startsWith('/trpc/')) {
    const names = decodeURIComponent(pathname.slice('/trpc/'.length)).split(',');
    if (names.length > 1) return '/trpc (batch)';
    return isProcedure(names[0]!) ? `/trpc/${names[0]}` : '/trpc (unknown)';
  }
  if (pathname.startsWith('/media/')) return '/media/:postId/:variant';
  if (pathname === '/uploads' || pathname === '/uploads/') return '/uploads';
  if (pathname.startsWith('/uploads/')) return '/uploads/:id';
  if (pathname === '/admin/queues' || pathname.startsWith('/admin/queues/')) return '/admin/queues';
  if (['/healthz', '/readyz', '/metrics'].includes(pathname)) return pathname;
  if (pathname.startsWith('/assets/')) return '/assets';
  return 'other';
}
