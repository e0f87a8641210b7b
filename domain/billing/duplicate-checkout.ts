import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { providerNamed } from '../../core/payments';
import type { PaymentProvider } from '../../core/payments/provider';
import type { EarningsPolicy } from '../earnings/policy';
import { insertPayment } from './billing.queries';
import type { Clock } from '../../core/clock';
import { recordReversal } from './reversals';
import { decideRefundAmount, findRefundRequest } from './refund-requests';

/**
 * A fan who opens the subscribe page in two tabs can pay two Stripe Checkouts for one creator: the
 * second `checkout.session.completed` finds the first subscription active. Access stays with the
 * first; the second is undone (docs/payments.md, "A second checkout"):
 *   1. in the webhook's transaction, its charge goes into the ledger as what it is so far, a
 *      succeeded payment with no subscription, marked by the key `duplicate-checkout-<event id>`;
 *   2. in the same transaction, the outbox row of the job `undo-duplicate-checkout` (maintenance
 *      queue, jobId from the event, queued after the commit or by the relay), which cancels the
 *      second Stripe subscription now and refunds its payment, each with a Stripe idempotency
 *      key, then records the refund as a reversal row (creator earnings net it out).
 * A failed provider call fails the job, and BullMQ tries again (UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS).
 */

export interface DuplicateCheckout {
  eventId: string;
  paymentId: string;
  /** the second Stripe subscription, to cancel (null: a checkout that started none) */
  providerSubscriptionId: string | null;
}

const KEY_PREFIX = 'duplicate-checkout-';
export const duplicateCheckoutKey = (eventId: string) => `${KEY_PREFIX}${eventId}`;
/**
 * Money paid at the provider for something gone meanwhile (issue 45): a Checkout or a renewal
 * (invoice.paid) of a tier, fan or subscription deleted before its event came. Recorded and undone
 * as a second checkout is: the provider's subscription cancelled now, the payment refunded.
 */
const GONE_PREFIX = 'gone-checkout-';
export const goneCheckoutKey = (eventId: string) => `${GONE_PREFIX}${eventId}`;
const undoable = (systemKey: string | null) => Boolean(systemKey && (systemKey.startsWith(KEY_PREFIX) || systemKey.startsWith(GONE_PREFIX)));
export const undoDuplicateCheckoutJobId = (eventId: string) => `undo-duplicate-checkout-${eventId}`;

/**
 * Retries over about four hours (30 s, 1 min, 2 min ... 2 h), so a Stripe outage of that long
 * still ends in a refund; a job that runs out stays in the failed list (Bull Board) for a week.
 */
export const UNDO_DUPLICATE_CHECKOUT_JOB_OPTIONS = { attempts: 10, backoff: { type: 'exponential', delay: 30_000 } } as const;

type CheckoutEvent = { id: string; userId: string | null; providerSubscriptionId: string | null; paymentRef: string; amountCents: number };

/**
 * Step 1, inside the webhook's transaction (the pair's lock held): the duplicate's charge, as
 * taken; with `gone`, a charge for a tier, fan or subscription deleted meanwhile (the fan null
 * when their account went).
 */
export async function recordDuplicateCheckout(
  trx: DB,
  provider: PaymentProvider,
  event: CheckoutEvent,
  charge: { tierId: string | null; creatorId: string | null; description: string; amountCents: number },
  now: Date,
  earnings: EarningsPolicy,
  opts: { gone?: boolean } = {},
): Promise<DuplicateCheckout> {
  const paymentId = await insertPayment(trx, {
    ...charge, userId: event.userId, subscriptionId: null, idempotencyKey: null, systemKey: opts.gone ? goneCheckoutKey(event.id) : duplicateCheckoutKey(event.id),
    provider: provider.name, providerRef: event.paymentRef, status: 'succeeded', createdAt: now, earnings,
  });
  // its refund is decided here (the amount reserved, the creator's share taken): the job makes it
  await decideRefundAmount(trx, { paymentId, amountCents: charge.amountCents, systemKey: refundKey({ id: paymentId, provider_ref: event.paymentRef }), now });
  return { eventId: event.id, paymentId, providerSubscriptionId: event.providerSubscriptionId };
}

/**
 * A checkout event seen before: its undo again while its payment is not refunded yet. Stripe
 * redelivers an event we answered 500 (the job could not be queued); the jobId keeps it to one job.
 */
export async function pendingDuplicateCheckout(db: DB, event: CheckoutEvent): Promise<DuplicateCheckout | null> {
  const payment = await db
    .selectFrom('payments')
    .select('id')
    .where('system_key', 'in', [duplicateCheckoutKey(event.id), goneCheckoutKey(event.id)])
    .where('status', '=', 'succeeded')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('payments as r').select('r.id').whereRef('r.reverses_payment_id', '=', 'payments.id').where('r.kind', '=', 'refund'))))
    .executeTakeFirst();
  return payment ? { eventId: event.id, paymentId: payment.id, providerSubscriptionId: event.providerSubscriptionId } : null;
}

export type UndoOutcome = { refunded: true } | { skipped: 'done' | 'gone' | 'not-a-duplicate' };

/** The refund's key: our reversal row's system key, Stripe's idempotency key and the refund's metadata alike. */
const refundKey = (payment: { id: string; provider_ref: string | null }) => `refund-${payment.provider_ref ?? payment.id}`;

/**
 * Step 2, the job: re-reads the payment (done already: skipped), cancels the second subscription
 * now, refunds the payment, and only then records the refund as a reversal row (./reversals.ts),
 * so the ledger never says more than the provider did. Each step is safe to repeat, and Stripe's
 * charge.refunded for the same refund finds the same key. Never touches a subscription we granted
 * access on.
 */
export async function undoDuplicateCheckout(
  deps: { db: DB; provider: PaymentProvider; clock: Clock },
  data: { paymentId: string; providerSubscriptionId: string | null },
): Promise<UndoOutcome> {
  const payment = await deps.db
    .selectFrom('payments')
    .select(['id', 'status', 'provider', 'provider_ref', 'system_key', 'amount_cents'])
    .where('id', '=', data.paymentId)
    .executeTakeFirst();
  if (!payment) return { skipped: 'gone' };
  // 'refunded': undone before refunds were rows of their own
  if (payment.status === 'refunded') return { skipped: 'done' };
  if (payment.status !== 'succeeded' || !undoable(payment.system_key)) return { skipped: 'not-a-duplicate' };
  // the provider that took it (not configured: throws, and the job is tried again; never skipped as done)
  const provider = providerNamed(deps.provider, payment.provider);
  const key = refundKey(payment);
  if (await deps.db.selectFrom('payments').select('id').where('system_key', '=', key).executeTakeFirst()) return { skipped: 'done' };
  if (data.providerSubscriptionId) {
    const granted = await deps.db
      .selectFrom('subscriptions')
      .select('id')
      .where('provider', '=', payment.provider)
      .where('provider_subscription_id', '=', data.providerSubscriptionId)
      .executeTakeFirst();
    if (granted) return { skipped: 'not-a-duplicate' };
    await provider.cancelNow(data.providerSubscriptionId);
  }
  // the amount decided with the duplicate (its refund_requests row); one from before that: all of it
  const amountCents = (await findRefundRequest(deps.db, key))?.amount_cents ?? readCents(payment.amount_cents);
  const refund = payment.provider_ref ? await provider.refund(payment.provider_ref, { amountCents, idempotencyKey: key }) : { ref: null };
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await recordReversal(trx, { paymentId: payment.id, kind: 'refund', amountCents, providerRef: refund.ref, systemKey: key, now });
    await trx.updateTable('refund_requests').set({ completed_at: now }).where('reversal_key', '=', key).where('completed_at', 'is', null).execute();
  });
  return { refunded: true };
}
