import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { PaymentProvider } from '../../core/payments/provider';
import type { Clock } from '../../core/clock';
import { DAY_MS } from './periods';
import { noEffects, type BillingEffects } from './effects';
import { accessAfterReversal, unlockAfterReversal } from './reversal-access';
import { recordReversal, refundableCents } from './reversals';
import { completeRefundRequest, decideRefundAmount, dropRefundRequest, findRefundRequest, type RefundDecision } from './refund-requests';

/** A provider call that must happen is retried for hours by BullMQ, then handed back by the outbox relay. */
export const PROVIDER_CALL_JOB_OPTIONS = { attempts: 10, backoff: { type: 'exponential', delay: 30_000 } } as const;

export interface RefundRequest {
  /** the charge to pay back (part of) */
  paymentId: string;
  /** whole cents, positive: the amount decided (its refund_requests row holds it; the job sends that one) */
  amountCents: number;
  /** the reversal's system key, which is also the provider's idempotency key: one refund however often the job runs */
  systemKey: string;
}

/**
 * A refund to make at the provider: an outbox row written in the caller's transaction (the change
 * that decided it), carried out by the `provider-refund` job (`carryOutRefund`). Callers decide
 * the refund first (`decideRefund`, or ./refund-requests.ts), so its amount is fixed and reserved.
 */
export function queueRefund(trx: DB, request: RefundRequest): Promise<QueuedEntry> {
  return addToOutbox(trx, {
    queue: 'maintenance',
    name: 'provider-refund',
    data: request,
    jobId: `provider-refund-${request.systemKey}`,
    options: PROVIDER_CALL_JOB_OPTIONS,
  });
}

/**
 * Decides a refund (./refund-requests.ts: under the charge's lock, at most what is left of it, the
 * amount reserved and the creator's share taken) and queues its job with that amount, in the
 * caller's transaction. Null: nothing left to refund.
 */
export async function decideRefund(trx: DB, decision: RefundDecision): Promise<{ amountCents: number; job: QueuedEntry } | null> {
  const decided = await decideRefundAmount(trx, decision);
  if (!decided) return null;
  const job = await queueRefund(trx, { paymentId: decision.paymentId, amountCents: decided.amountCents, systemKey: decision.systemKey });
  return { amountCents: decided.amountCents, job };
}

/** `refundedCents`: what went back to the payer. */
export type RefundOutcome = { refundedCents: number; reversalId: string; effects: BillingEffects } | { skipped: 'done' | 'gone' | 'nothing-left' };

/**
 * The `provider-refund` job: pays back the amount decided (its refund_requests row; a job from
 * before that: at most what is left) through the provider that took the charge (the built-in one
 * calls nobody), and only then writes the refund row, so the ledger never says more than the
 * provider did; the creator's share was taken when the refund was decided, and the refund's row
 * takes it over. Less left at the provider than decided (a refund made elsewhere meanwhile): not
 * made, and the share given back. A provider error fails the attempt (retried); a repeat
 * after success finds the row and stops. An admin's request with this key (./admin-refund.ts) is
 * closed with it, and what the refund means for access (./reversal-access.ts) comes back as effects.
 */
export async function carryOutRefund(
  deps: { db: DB; providerFor: (name: string) => PaymentProvider; clock: Clock },
  request: RefundRequest,
): Promise<RefundOutcome> {
  const { db } = deps;
  const close = () => completeRefundRequest(db, request.systemKey, deps.clock.now());
  if (await db.selectFrom('payments').select('id').where('system_key', '=', request.systemKey).executeTakeFirst()) {
    await close();
    return { skipped: 'done' };
  }
  const charge = await db
    .selectFrom('payments')
    .select(['id', 'provider', 'provider_ref'])
    .where('id', '=', request.paymentId)
    .where('kind', '=', 'charge')
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  if (!charge) {
    await db.transaction().execute((trx) => dropRefundRequest(trx, request.systemKey, deps.clock.now()));
    return { skipped: 'gone' };
  }
  // the amount decided, fixed when it was queued: every try sends the same amount under the same key
  const decided = await findRefundRequest(db, request.systemKey);
  const left = await refundableCents(db, charge.id);
  let cents: number;
  if (decided && decided.payment_id === charge.id) {
    cents = decided.amount_cents;
    if (cents > left) {
      // refunded elsewhere meanwhile (the dashboard) and less left than decided: this one is not made
      await db.transaction().execute((trx) => dropRefundRequest(trx, request.systemKey, deps.clock.now()));
      return { skipped: 'nothing-left' };
    }
  } else {
    // a job queued before refunds were decided ahead (no request row): at most what is left
    cents = Math.min(request.amountCents, left);
    if (cents <= 0) {
      await close();
      return { skipped: 'nothing-left' };
    }
  }
  const refund = charge.provider_ref ? await deps.providerFor(charge.provider).refund(charge.provider_ref, { amountCents: cents, idempotencyKey: request.systemKey }) : { ref: null };
  const now = deps.clock.now();
  return db.transaction().execute(async (trx) => {
    const reversal = await recordReversal(trx, { paymentId: charge.id, kind: 'refund', amountCents: cents, providerRef: refund.ref, systemKey: request.systemKey, now });
    await completeRefundRequest(trx, request.systemKey, now);
    if (!reversal) return { skipped: 'gone' as const };
    const effects = noEffects();
    const change = await accessAfterReversal(trx, reversal.charge.subscriptionId, { now, mayRestore: false });
    if (change) effects.entitlements.push(change);
    const unlock = await unlockAfterReversal(trx, reversal.charge.id, { now, mayRestore: false });
    if (unlock) effects.entitlements.push(unlock);
    return { refundedCents: cents, reversalId: reversal.id, effects };
  });
}

/**
 * The unused part of a paid period, pro rata by whole days (docs/payments.md): the days left from
 * `at` to the period's end (rounded down) over the period's days, of what was paid (cents),
 * rounded down to the cent. Nothing once the period is over.
 */
export function proRataRefund(paidCents: number, periodStart: Date, periodEnd: Date, at: Date): number {
  const periodDays = Math.max(1, Math.round((periodEnd.getTime() - periodStart.getTime()) / DAY_MS));
  const daysLeft = Math.min(periodDays, Math.max(0, Math.floor((periodEnd.getTime() - at.getTime()) / DAY_MS)));
  return Math.floor((paidCents * daysLeft) / periodDays);
}
