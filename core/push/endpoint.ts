import { isIP } from 'node:net';

/**
 * Whether the server may POST a push to this endpoint. The endpoint comes from the browser, so
 * the worker would otherwise send requests wherever a user points it (SSRF): only https to a
 * named host, never an address literal, localhost or a private name. `allowLocal` (the setting
 * PUSH_ALLOW_LOCAL_ENDPOINTS, for tests only) also lets plain http to the loopback through, where
 * a test's push service listens.
 */
export function pushEndpointAllowed(endpoint: string, allowLocal: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host === '127.0.0.1' || host === '::1';
  if (allowLocal && loopback && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  if (url.protocol !== 'https:') return false;
  if (isIP(host) !== 0 || !host.includes('.')) return false;
  return !/(^|\.)(localhost|local|internal|lan|home|corp|intranet)$/.test(host);
}
