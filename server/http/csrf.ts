import type { RequestHandler } from 'express';
import { AUTH_TEXTS } from '../../common/texts';
import type { Config } from '../config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An Origin is ours when it is the configured APP_URL's origin, or the origin the request was
 * addressed to (same host and port), which covers direct access by IP in a private deployment.
 * In development the Vite dev server's origin is ours too.
 */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, config: Config): boolean {
  if (!origin) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(config.appUrl).origin) return true;
  if (host && parsed.host === host) return true;
  return config.NODE_ENV === 'development' && parsed.host === 'localhost:5173';
}

/** Refuses every state-changing request whose Origin is missing or foreign (CSRF), with 403. */
export function csrfGuard(config: Config): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (isAllowedOrigin(req.headers.origin, req.headers.host, config)) return next();
    res.status(403).json({ error: { message: AUTH_TEXTS.csrfRejected, code: 'FORBIDDEN' } });
  };
}
