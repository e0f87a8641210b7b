import webpush from 'web-push';
import type { Config } from '../config';
import { pushEndpointAllowed } from './endpoint';

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
 * Sends one encrypted push (RFC 8291, through web-push). 'gone': the push service says the
 * browser no longer has this subscription (404, 410), so the caller forgets it; any other
 * failure throws, and the job retries.
 */
export async function sendWebPush(
  vapid: NonNullable<ReturnType<typeof vapidOf>>,
  subscription: StoredPushSubscription,
  payload: string,
  allowLocal = false,
): Promise<PushOutcome> {
  // stored before the check existed, or a setting turned off since: never sent, and forgotten
  if (!pushEndpointAllowed(subscription.endpoint, allowLocal)) return 'gone';
  // web-push encrypts and signs; the request goes through fetch, which also reaches a test's
  // plain-HTTP push service (web-push's own sender speaks https only)
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    { headers: { Authorization: vapidAuthorization(vapid, subscription.endpoint) }, TTL: 24 * 3600 },
  );
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: new Uint8Array(request.body as Buffer),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status === 404 || response.status === 410) return 'gone';
  if (!response.ok) throw new Error(`push service answered ${response.status}`);
  return 'sent';
}
