import { TRPCError } from '@trpc/server';
import type { PushSubscriptionInput } from '../../../common/notification-schemas';
import type { AppDeps } from '../../../core/deps';
import { pushEndpointAllowed } from '../../../core/push/endpoint';
import { vapidOf } from '../../../core/push/web-push';

/** The most browsers one user keeps subscribed; the oldest is forgotten beyond it. */
const MAX_BROWSERS = 10;

/** What the browser needs to subscribe: the server's VAPID public key, or null when push is off for this instance. */
export function pushKey(deps: Pick<AppDeps, 'config'>): { publicKey: string | null } {
  return { publicKey: vapidOf(deps.config)?.publicKey ?? null };
}

/**
 * This browser subscribed (Push Notifications turned on). An endpoint is one browser's; if another
 * account had it (a shared computer), it is now this user's. Several browsers per user.
 */
export async function subscribePush(deps: Pick<AppDeps, 'db' | 'config'>, userId: string, input: PushSubscriptionInput): Promise<{ ok: true }> {
  if (!vapidOf(deps.config)) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Push notifications are not available on this server' });
  if (!pushEndpointAllowed(input.endpoint, deps.config.PUSH_ALLOW_LOCAL_ENDPOINTS)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This browser\'s push service is not one this server sends to' });
  }
  const values = { user_id: userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth };
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('push_subscriptions')
      .values(values)
      .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, p256dh: values.p256dh, auth: values.auth }))
      .execute();
    const extra = await trx.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).orderBy('created_at', 'desc').offset(MAX_BROWSERS).execute();
    if (extra.length) await trx.deleteFrom('push_subscriptions').where('id', 'in', extra.map((e) => e.id)).execute();
  });
  return { ok: true };
}

/** This browser unsubscribed (Push Notifications turned off here); only the caller's own endpoint. */
export async function unsubscribePush(deps: Pick<AppDeps, 'db'>, userId: string, endpoint: string): Promise<{ ok: true }> {
  await deps.db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute();
  return { ok: true };
}
