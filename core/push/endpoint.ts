import { isIP } from 'node:net';

/** An endpoint the server may send to: its URL (the host's trailing dots taken off) and whether it is the tests' loopback. */
export interface PushTarget {
  url: URL;
  /** the loopback, let through by PUSH_ALLOW_LOCAL_ENDPOINTS only (the tests' push service) */
  local: boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * Where the server may POST a push, judged from the endpoint's text, or null. The endpoint comes
 * from the browser, so the worker would otherwise send requests wherever a user points it (SSRF):
 * only https to a named host, never an address literal, localhost or a private name. The host's
 * trailing dots are taken off first (`localhost.` is localhost). `allowLocal` (the setting
 * PUSH_ALLOW_LOCAL_ENDPOINTS, for tests only) also lets http(s) to the loopback through, where a
 * test's push service listens.
 *
 * The text is only the first gate: what the name resolves to is checked when the push is sent,
 * and the connection goes to the address checked (core/push/web-push.ts).
 */
export function pushTarget(endpoint: string, allowLocal: boolean): PushTarget | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  if (!host) return null;
  if (url.hostname.endsWith('.')) url.hostname = host;
  if (allowLocal && LOOPBACK_NAMES.has(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return { url, local: true };
  if (url.protocol !== 'https:') return null;
  if (isIP(host) !== 0 || !host.includes('.')) return null;
  if (/(^|\.)(localhost|local|internal|lan|home|corp|intranet|localdomain|arpa)$/.test(host)) return null;
  return { url, local: false };
}

/** Whether the server may POST a push to this endpoint, judged from its text (see pushTarget). */
export function pushEndpointAllowed(endpoint: string, allowLocal: boolean): boolean {
  return pushTarget(endpoint, allowLocal) !== null;
}
