import type { RequestHandler } from 'express';
import { Router } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { AppDeps } from '../deps';
import { httpRequestDuration, queueDepthRegistry, renderMetrics } from '../metrics/metrics';
import { sessionUserOf } from './session-user';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether `Authorization` carries `Bearer <METRICS_TOKEN>` (compared in constant time); never when
 * no token is configured. No address is trusted instead: behind a proxy on the same host every
 * visitor is a loopback peer.
 */
export function hasMetricsToken(authorization: string | undefined, token: string | undefined): boolean {
  if (!token || !authorization) return false;
  const presented = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

/** GET /metrics (Prometheus text): for a scraper with METRICS_TOKEN or an admin's session; else 401/403. */
export function metricsRoutes(deps: AppDeps): Router {
  const router = Router();
  let queueDepths: Registry | null = null;
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
    queueDepths ??= queueDepthRegistry(deps.queues);
    const { contentType, body } = await renderMetrics(queueDepths);
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
