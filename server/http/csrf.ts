import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { AUTH_TEXTS } from '../../common/texts';
import type { Config } from '../../core/config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header's first value (a proxy chain appends to X-Forwarded-Proto; the first is the client's). */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim().toLowerCase() || undefined;
}

/**
 * The origin a request was addressed to: its scheme (X-Forwarded-Proto when TRUST_PROXY trusts a
 * proxy, as Express's req.protocol does; else whether the connection is TLS) and its Host.
 */
export function requestOrigin(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: number): string | null {
  const host = req.headers.host;
  if (!host) return null;
  const forwarded = trustProxy > 0 ? firstValue(req.headers['x-forwarded-proto']) : undefined;
  const scheme = forwarded ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  if (scheme !== 'http' && scheme !== 'https') return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/**
 * An Origin is ours when it is the configured APP_URL's origin, or the origin the request was
 * addressed to (same scheme, host and port), which covers direct access by IP in a private
 * deployment. Scheme counts: a page on http://host is not https://host's. In development the Vite
 * dev server's origin is ours too.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  req: Pick<IncomingMessage, 'headers' | 'socket'>,
  config: Pick<Config, 'appUrl' | 'NODE_ENV' | 'TRUST_PROXY'>,
): boolean {
  if (!origin) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(config.appUrl).origin) return true;
  if (parsed.origin === requestOrigin(req, config.TRUST_PROXY)) return true;
  return config.NODE_ENV === 'development' && parsed.origin === 'http://localhost:5173';
}

/** Refuses every state-changing request whose Origin is missing or foreign (CSRF), with 403. */
export function csrfGuard(config: Config): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (isAllowedOrigin(req.headers.origin, req, config)) return next();
    res.status(403).json({ error: { message: AUTH_TEXTS.csrfRejected, code: 'FORBIDDEN' } });
  };
}
