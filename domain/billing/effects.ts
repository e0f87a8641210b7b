import type { Logger } from 'pino';
import { MAIL_JOB_OPTIONS } from '../../common/jobs';
import { subscriptionEntitlement } from '../../common/entitlements';
import type { DB } from '../../core/db/kysely';
import type { PendingChargesTable } from '../../core/db/schema';
import { addToOutbox, dispatchOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { Queues } from '../../core/queues/queues';
import type { Realtime } from '../../core/realtime/realtime';
import { entitlementEnded } from '../announcements/access-changes';
import { notify } from '../notifications/notify';
import { UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS, undoDuplicateCheckoutJobId, type DuplicateCheckout } from './duplicate-checkout';

export type OneOffPurpose = PendingChargesTable['purpose'];

/** A one-off charge written (./one-off.ts): who is told what after the commit (tip:received, the fan's tabs). */
export interface PurchaseDone {
  purpose: OneOffPurpose;
  paymentId: string;
  userId: string;
  creatorId: string;
  messageId: string | null;
}

/** What a billing write leaves to do once it committed: live entitlement events, and jobs to queue. */
export interface BillingEffects {
  /** the fan's subscription to this creator (null: Premium) started or lapsed; with `postId`, an unlock of that post of the creator's */
  entitlements: { userId: string; creatorId: string | null; active: boolean; postId?: string }[];
  /**
   * Jobs whose outbox rows were written in the payment's transaction (receipts, renewal reminders,
   * a duplicate checkout's cancel and refund, a failed checkout's mail): queued after the commit,
   * or by the relay.
   */
  jobs: QueuedEntry[];
  /** one-off charges written (./one-off.ts): announced after the commit (announcePurchases) */
  purchases?: PurchaseDone[];
  /** cards a newer one replaced: detached at the provider after the commit (nothing here charges them any more) */
  detachCards?: string[];
}

export const noEffects = (): BillingEffects => ({ entitlements: [], jobs: [] });

export const receiptJobId = (paymentId: string) => `billing-receipt-${paymentId}`;
export const renewalReminderJobId = (subscriptionId: string, periodEnd: Date) => `renewal-reminder-${subscriptionId}-${periodEnd.getTime()}`;
export const renewalFailedJobId = (paymentId: string) => `renewal-failed-${paymentId}`;

/** In the payment's transaction: its receipt (jobId from the payment id, so a repeat writes nothing). */
export function addReceipt(trx: DB, paymentId: string): Promise<QueuedEntry> {
  return addToOutbox(trx, { queue: 'mail', name: 'billing-receipt', data: { paymentId }, jobId: receiptJobId(paymentId), options: MAIL_JOB_OPTIONS });
}

/**
 * Notifications of subscriptions (issue 28), each kind written here once, in the payment's
 * transaction: a subscription's charge tells its creator of a new subscriber (its first charge)
 * or a renewal (Premium, paid to the platform, tells nobody); a cancellation tells the creator; a
 * failed renewal and a subscription about to end tell the fan. Each returns the delivery's outbox
 * entry (none when nobody is told), dispatched with the other jobs. One-off payments (tips,
 * unlocks) are told by notifyPurchase (domain/notifications/money.ts), payouts by notifyPayout.
 */
async function notifyCreatorOfCharge(trx: DB, paymentId: string): Promise<QueuedEntry[]> {
  const payment = await trx
    .selectFrom('payments as p')
    .select(['p.user_id', 'p.creator_id', 'p.subscription_id', 'p.created_at'])
    .select((eb) =>
      eb
        .selectFrom('payments as earlier')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('earlier.subscription_id', '=', 'p.subscription_id')
        .whereRef('earlier.id', '<>', 'p.id')
        .where('earlier.kind', '=', 'charge')
        .where('earlier.status', '=', 'succeeded')
        .as('earlier_charges'),
    )
    .where('p.id', '=', paymentId)
    .executeTakeFirst();
  if (!payment?.creator_id || !payment.user_id) return [];
  const kind = Number(payment.earlier_charges ?? 0) === 0 ? 'new-subscriber' : 'subscription-renewed';
  const entry = await notify(trx, { userId: payment.creator_id, kind, actorId: payment.user_id, subject: { type: 'user', id: payment.user_id }, at: payment.created_at });
  return entry ? [entry] : [];
}

/** In a subscription charge's transaction: its receipt and its creator's notification. */
export async function addChargeEffects(trx: DB, paymentId: string): Promise<QueuedEntry[]> {
  return [await addReceipt(trx, paymentId), ...(await notifyCreatorOfCharge(trx, paymentId))];
}

/** The fan's subscription: its creator (the row's actor and subject) and the fan. */
async function subscriptionParties(trx: DB, subscriptionId: string) {
  return trx
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.subscriber_id', 't.creator_id'])
    .where('s.id', '=', subscriptionId)
    .executeTakeFirst();
}

/** In the transaction that sets a subscription to end at its period end (the fan cancelled): its creator is told. */
export async function notifyCancellation(trx: DB, subscriptionId: string, at: Date): Promise<QueuedEntry[]> {
  const sub = await subscriptionParties(trx, subscriptionId);
  if (!sub?.creator_id) return [];
  const entry = await notify(trx, { userId: sub.creator_id, kind: 'subscription-canceled', actorId: sub.subscriber_id, subject: { type: 'user', id: sub.subscriber_id }, at });
  return entry ? [entry] : [];
}

/** The fan is told their subscription ends soon (its creator became unavailable) or failed to renew. */
export async function notifyFanOfSubscription(trx: DB, subscriptionId: string, kind: 'renewal-failed' | 'subscription-ending', at: Date): Promise<QueuedEntry[]> {
  const sub = await subscriptionParties(trx, subscriptionId);
  if (!sub) return [];
  const entry = await notify(trx, {
    userId: sub.subscriber_id, kind, actorId: sub.creator_id, subject: { type: 'subscription', id: subscriptionId }, group: { key: `${kind}:${subscriptionId}` }, at,
  });
  return entry ? [entry] : [];
}

/** In the transaction of a renewal charge that first failed this period (its `failed` row): what the fan should do. */
export function addRenewalFailedMail(trx: DB, failedPaymentId: string): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'mail', name: 'renewal-failed', data: { paymentId: failedPaymentId }, jobId: renewalFailedJobId(failedPaymentId), options: MAIL_JOB_OPTIONS,
  });
}

/** In the transaction that marks the period reminded: the reminder mail. */
export function addRenewalReminder(trx: DB, subscriptionId: string, periodEnd: Date): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'mail',
    name: 'renewal-reminder',
    data: { subscriptionId, periodEnd: periodEnd.toISOString() },
    jobId: renewalReminderJobId(subscriptionId, periodEnd),
    options: MAIL_JOB_OPTIONS,
  });
}

/** In the webhook's transaction: a second checkout's undo (./duplicate-checkout.ts); the jobId comes from the event. */
export function addUndoDuplicateCheckout(trx: DB, d: DuplicateCheckout): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'maintenance',
    name: 'undo-duplicate-checkout',
    data: { paymentId: d.paymentId, providerSubscriptionId: d.providerSubscriptionId },
    jobId: undoDuplicateCheckoutJobId(d.eventId),
    options: UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS,
  });
}

/**
 * In the webhook's transaction: an asynchronous Checkout payment failed; the fan is told by mail
 * (whatever the notification settings: they are waiting for it). jobId from the event.
 */
export function addCheckoutFailedMail(trx: DB, f: { userId: string; tierId: string; eventId: string }): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'mail',
    name: 'checkout-payment-failed',
    data: { userId: f.userId, tierId: f.tierId },
    jobId: `checkout-payment-failed-${f.eventId}`,
    options: MAIL_JOB_OPTIONS,
  });
}

/**
 * After the commit, never inside it: the fan's open pages hear `entitlement:changed` (all their
 * sockets: the tab that subscribed navigates anyway), and the jobs written with the payment are
 * queued. A Redis hiccup here loses a live update, never a receipt or a refund: their outbox rows
 * committed with the payment, and the relay queues what could not be queued now.
 */
export async function applyBillingEffects(
  deps: { realtime: Realtime; queues: Pick<Queues, 'add'>; log: Pick<Logger, 'warn'> },
  effects: BillingEffects,
): Promise<void> {
  for (const e of effects.entitlements) {
    const subject = e.postId && e.creatorId ? { kind: 'post' as const, postId: e.postId, creatorId: e.creatorId } : subscriptionEntitlement(e.creatorId);
    deps.realtime.toUser(e.userId, 'entitlement:changed', { subject, active: e.active });
    if (e.postId) continue;
    // rooms joined while subscribed ('friends' profiles) are checked again
    if (!e.active) entitlementEnded(deps.realtime, e.userId);
    // Premium is the signed-in user's `isPremium` and verified badge, which server copies hold in their session caches
    if (e.creatorId === null) await deps.realtime.forgetSessions({ userIds: [e.userId] });
  }
  await dispatchOutbox(deps, effects.jobs);
}
