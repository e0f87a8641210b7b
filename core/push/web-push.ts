import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import webpush from 'web-push';
import type { Config } from '../config';
import { pushTarget } from './endpoint';

/** One browser's Push API subscription, as stored (push_subscriptions). */
export interface StoredPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome = 'sent' | 'gone';

/** The server's VAPID details from the settings, or null when none are set (push is off for the instance). */
export function vapidOf(config: Pick<Config, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'>) {
  if (!config.VAPID_PUBLIC_KEY || !config.VAPID_PRIVATE_KEY) return null;
  return { subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
}

/** A new VAPID key pair (`npm start` writes one into `.env` when the settings have none). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}

/** A VAPID JWT lives 12 h (web-push's default); one is signed per push service and reused for 11 h. */
const VAPID_REUSE_MS = 11 * 3600_000;
const vapidHeaders = new Map<string, { authorization: string; until: number }>();

/**
 * The Authorization header for this push service: signing an ES256 token for every push cost as
 * much as the encryption itself in a 10,000-subscriber fan-out (bench/notify-fanout.ts), and the
 * token only names the push service's origin, so one per origin and key pair serves them all.
 */
function vapidAuthorization(vapid: NonNullable<ReturnType<typeof vapidOf>>, endpoint: string): string {
  const audience = new URL(endpoint).origin;
  const key = `${audience} ${vapid.publicKey}`;
  const now = Date.now();
  const cached = vapidHeaders.get(key);
  if (cached && cached.until > now) return cached.authorization;
  const headers = webpush.getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm');
  if (vapidHeaders.size > 100) vapidHeaders.clear();
  vapidHeaders.set(key, { authorization: headers.Authorization, until: now + VAPID_REUSE_MS });
  return headers.Authorization;
}

/**
 * The connections pushes go out on (request-filtering-agent): each resolves the push service's
 * name, refuses the connection when any address it answers is not a public unicast one (loopback,
 * private, link-local with the cloud metadata address 169.254.169.254, carrier-grade NAT,
 * unique-local such as fd00:ec2::254, IPv4 mapped or translated in IPv6, unspecified, multicast,
 * broadcast, reserved), and connects to the addresses it checked: the name is not asked again, so
 * a second DNS answer cannot move the connection. An address literal is checked the same way.
 * Kept alive: a fan-out sends thousands of pushes to a few push services.
 */
const publicAgent = new RequestFilteringHttpsAgent({ keepAlive: true });
/** PUSH_ALLOW_LOCAL_ENDPOINTS (tests only): the loopback, and still nothing else private. */
const LOOPBACK = ['127.0.0.1', '::1'];
const localAgents = {
  'http:': new RequestFilteringHttpAgent({ keepAlive: true, allowIPAddressList: LOOPBACK }),
  'https:': new RequestFilteringHttpsAgent({ keepAlive: true, allowIPAddressList: LOOPBACK }),
};

export interface PushSendOptions {
  /** PUSH_ALLOW_LOCAL_ENDPOINTS: the tests' push service on the loopback may be sent to */
  allowLocal?: boolean;
  /** how names are resolved (tests: a name that answers a private address); dns.lookup when absent */
  lookup?: LookupFunction;
}

/**
 * Sends one encrypted push (RFC 8291, through web-push). 'gone': the push service says the
 * browser no longer has this subscription (404, 410), so the caller forgets it; any other
 * failure throws, and the job retries. Redirects are not followed: a 3xx is a failed delivery
 * (a push service never answers one; a server that does wants the worker to go elsewhere).
 */
export async function sendWebPush(
  vapid: NonNullable<ReturnType<typeof vapidOf>>,
  subscription: StoredPushSubscription,
  payload: string,
  options: PushSendOptions = {},
): Promise<PushOutcome> {
  // stored before the check existed, or a setting turned off since: never sent, and forgotten
  const target = pushTarget(subscription.endpoint, options.allowLocal ?? false);
  if (!target) return 'gone';
  // web-push encrypts and signs; the request goes out here, through the filtering agent, over
  // https or (the tests' push service only) http
  const request = webpush.generateRequestDetails(
    { endpoint: target.url.href, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    { headers: { Authorization: vapidAuthorization(vapid, target.url.href) }, TTL: 24 * 3600 },
  );
  const agent = target.local ? localAgents[target.url.protocol as 'http:' | 'https:'] : publicAgent;
  const status = await post(target.url, request.method, request.headers as Record<string, string>, request.body as Buffer, agent, options.lookup);
  if (status === 404 || status === 410) return 'gone';
  if (status >= 300 && status < 400) throw new Error(`push service answered ${status}: redirects are not followed`);
  if (status < 200 || status >= 300) throw new Error(`push service answered ${status}`);
  return 'sent';
}

/** One request with node's http(s) (which follows no redirect), answered with its status once the body is read. */
function post(url: URL, method: string, headers: Record<string, string>, body: Buffer, agent: http.Agent, lookup: LookupFunction | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'http:' ? http.request : https.request;
    const req = send(url, { method, headers, agent, signal: AbortSignal.timeout(10_000), ...(lookup && { lookup }) }, (res) => {
      res.on('error', reject);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.resume();
    });
    req.on('error', (error) => reject(new Error(`push to ${url.origin} not sent: ${error.message}`, { cause: error })));
    req.end(body);
  });
}
