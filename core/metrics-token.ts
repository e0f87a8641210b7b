import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether `Authorization` carries `Bearer <METRICS_TOKEN>` (compared in constant time); never when
 * no token is configured. No address is trusted instead: behind a proxy on the same host every
 * visitor is a loopback peer. The server's /metrics and the worker's metrics port both gate on it.
 */
export function hasMetricsToken(authorization: string | undefined, token: string | undefined): boolean {
  if (!token || !authorization) return false;
  const presented = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}
