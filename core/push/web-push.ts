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
    { vapidDetails: vapid, TTL: 24 * 3600 },
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
