import { MAIL_JOB_OPTIONS } from '../../common/jobs';
import type { Logger } from 'pino';
import type { Queues } from '../../core/queues/queues';
import type { Realtime } from '../../core/realtime/realtime';
import { entitlementEnded } from '../announcements/access-changes';
import { UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS, undoDuplicateCheckoutJobId, type DuplicateCheckout } from './duplicate-checkout';

/** What a billing write leaves to do once it committed: live entitlement events, receipts, provider calls. */
export interface BillingEffects {
  /** the fan's subscription to this creator (null: Premium) started or lapsed */
  entitlements: { userId: string; creatorId: string | null; active: boolean }[];
  /** succeeded payments to send a receipt for */
  receipts: { paymentId: string }[];
  /** second checkouts to cancel and refund at the provider (./duplicate-checkout.ts) */
  duplicateCheckouts: DuplicateCheckout[];
}

export const noEffects = (): BillingEffects => ({ entitlements: [], receipts: [], duplicateCheckouts: [] });

export const receiptJobId = (paymentId: string) => `billing-receipt-${paymentId}`;

/**
 * After the commit, never inside it: the fan's open pages hear `entitlement:changed` (all their
 * sockets: the tab that subscribed navigates anyway), and each charge gets its receipt job (jobId
 * from the payment id, so a retried request or job queues it once). A Redis hiccup here loses a
 * live update or a receipt, never money: both are logged. A duplicate checkout's undo job is
 * money: when it cannot be queued this throws (the webhook answers 500, Stripe redelivers the
 * event, and provider-events.ts hands the undo back while its payment is not refunded).
 */
export async function applyBillingEffects(
  deps: { realtime: Realtime; queues: Pick<Queues, 'add'>; log: Pick<Logger, 'warn'> },
  effects: BillingEffects,
): Promise<void> {
  for (const e of effects.entitlements) {
    deps.realtime.toUser(e.userId, 'entitlement:changed', { creatorId: e.creatorId, active: e.active });
    // rooms joined while subscribed ('friends' profiles) are checked again
    if (!e.active) entitlementEnded(deps.realtime, e.userId);
    // Premium is the signed-in user's `isPremium`, which server copies hold in their session caches
    if (e.creatorId === null) await deps.realtime.forgetSessions({ userIds: [e.userId] });
  }
  for (const r of effects.receipts) {
    try {
      await deps.queues.add('mail', 'billing-receipt', { paymentId: r.paymentId }, { ...MAIL_JOB_OPTIONS, jobId: receiptJobId(r.paymentId) });
    } catch (err) {
      deps.log.warn({ err, paymentId: r.paymentId }, 'could not queue the receipt mail');
    }
  }
  for (const d of effects.duplicateCheckouts) {
    await deps.queues.add(
      'maintenance',
      'undo-duplicate-checkout',
      { paymentId: d.paymentId, providerSubscriptionId: d.providerSubscriptionId },
      { ...UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS, jobId: undoDuplicateCheckoutJobId(d.eventId) },
    );
  }
}
