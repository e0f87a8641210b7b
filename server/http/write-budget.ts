import type { RequestHandler } from 'express';
import { SERVER_TEXTS } from '../../common/texts';
import type { AppDeps } from '../../core/deps';
import { httpWriteBudget, spendWriteBudget } from '../auth/write-budgets';
import { sessionUserOf } from './session-user';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The write budgets (server/auth/write-budgets.ts) of the plain HTTP routes: every POST, PUT,
 * PATCH and DELETE outside /trpc (whose mutations the tRPC middleware counts) is counted for its
 * user and address before its route runs. Over budget: 429 `{ error: { code, message } }` with
 * Retry-After; counters out of reach: 503. Mounted after the Origin check and Stripe's webhooks.
 */
export function writeBudgetGuard(deps: AppDeps): RequestHandler {
  return async (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || req.path === '/trpc' || req.path.startsWith('/trpc/')) return next();
    try {
      const budget = httpWriteBudget(req.method, req.path);
      const user = await sessionUserOf(deps, req, res);
      const verdict = await spendWriteBudget(deps, `http:${budget}`, budget, { userId: user?.id ?? null, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
      if (verdict.outcome === 'allowed') return next();
      res.setHeader('Cache-Control', 'no-store');
      // the body is not read: close the connection rather than drain an upload
      if (!req.readableEnded) res.setHeader('Connection', 'close');
      if (verdict.outcome === 'unavailable') {
        deps.log.warn({ err: verdict.error }, 'write budget unavailable');
        return void res.status(503).json({ error: { code: 'SERVICE_UNAVAILABLE', message: SERVER_TEXTS.unavailable } });
      }
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      res.status(429).json({ error: { code: 'TOO_MANY_REQUESTS', message: verdict.message } });
    } catch (error) {
      next(error);
    }
  };
}
