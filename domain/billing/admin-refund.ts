import { sql } from 'kysely';
import { fromCents, toCents } from '../../common/money';
import { REFUND_TEXTS } from '../../common/texts';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { PaymentProvider } from '../../core/payments/provider';
import type { Clock } from './clock';
import { noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { completeRefundRequest } from './provider-reversals';
import { accessAfterReversal } from './reversal-access';
import { recordReversal } from './reversals';

/**
 * An admin refunds a charge, in full or in part (docs/payments.md, "Refunds and disputes"):
 *   1. `requestRefund`, one transaction: the charge locked, the amount checked against what is left
 *      (its amount − refunds recorded − refunds still pending), a refund_requests row (the 'refund
 *      pending' marker) and an outbox row for the job `provider-refund` (maintenance queue; data:
 *      the payment, the amount and the reversal key, nothing secret);
 *   2. the job (`carryOutRefund`) asks the provider (Stripe idempotency key = the reversal key, so
 *      a retried job refunds once; the built-in provider moves no money), then records the reversal
 *      row once and closes the request, in one transaction. A provider error fails the attempt and
 *      BullMQ tries again (PROVIDER_REFUND_JOB_OPTIONS; the outbox hands back a job Redis lost).
 * The reversal key comes from the admin's idempotency key, so a double press is one refund.
 */

export const PROVIDER_REFUND_JOB_OPTIONS = { attempts: 10, backoff: { type: 'exponential', delay: 30_000 } } as const;
export const providerRefundJobId = (reversalKey: string) => `provider-refund-${reversalKey}`;
const reversalKeyFor = (idempotencyKey: string) => `admin-refund-${idempotencyKey}`;

export interface RefundRequested {
  paymentId: string;
  amount: string;
  /** the job to queue after the commit (it is already in the outbox) */
  job: QueuedEntry;
}

export async function requestRefund(
  deps: { db: DB; provider: PaymentProvider },
  req: { adminId: string; paymentId: string; amount: string; idempotencyKey: string },
): Promise<RefundRequested> {
  const reversalKey = reversalKeyFor(req.idempotencyKey);
  return deps.db.transaction().execute(async (trx) => {
    const charge = await trx
      .selectFrom('payments')
      .select(['id', 'kind', 'status', 'amount', 'provider', 'provider_ref'])
      .where('id', '=', req.paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!charge) throw new BillingError('NOT_FOUND', REFUND_TEXTS.paymentNotFound);
    const entry = (amount: string) => ({
      queue: 'maintenance' as const,
      name: 'provider-refund' as const,
      data: { paymentId: charge.id, amount, reversalKey },
      jobId: providerRefundJobId(reversalKey),
      options: PROVIDER_REFUND_JOB_OPTIONS,
    });
    // the same press again (a retry, a double click): the first request's answer
    const earlier = await trx.selectFrom('refund_requests').select(['payment_id', 'amount']).where('reversal_key', '=', reversalKey).executeTakeFirst();
    if (earlier) {
      if (earlier.payment_id !== charge.id) throw new BillingError('CONFLICT', REFUND_TEXTS.refundFailed);
      return { paymentId: charge.id, amount: earlier.amount, job: entry(earlier.amount) };
    }
    if (charge.kind !== 'charge' || charge.status !== 'succeeded') throw new BillingError('CONFLICT', REFUND_TEXTS.notRefundable);
    if (charge.provider !== deps.provider.name) throw new BillingError('CONFLICT', REFUND_TEXTS.otherProvider);
    const state = await refundState(trx, charge.id);
    if (state.disputed) throw new BillingError('CONFLICT', REFUND_TEXTS.disputed);
    const left = toCents(charge.amount) - toCents(state.refunded) - toCents(state.pending);
    if (left <= 0) throw new BillingError('CONFLICT', REFUND_TEXTS.nothingLeft);
    if (toCents(req.amount) > left) throw new BillingError('CONFLICT', REFUND_TEXTS.amountTooHigh(`R${fromCents(left)}`));
    await trx.insertInto('refund_requests').values({ payment_id: charge.id, amount: req.amount, reversal_key: reversalKey, requested_by: req.adminId }).execute();
    const job = await addToOutbox(trx, entry(req.amount));
    return { paymentId: charge.id, amount: req.amount, job };
  });
}

/** A charge's refunds recorded, refunds requested and not yet confirmed, and whether a dispute holds it. */
async function refundState(db: DB, paymentId: string) {
  const row = await sql<{ refunded: string; pending: string; disputed: boolean }>`
    select
      coalesce((select -sum(amount) from payments where reverses_payment_id = ${paymentId} and kind = 'refund'), 0)::numeric(12,2)::text as refunded,
      coalesce((select sum(amount) from refund_requests where payment_id = ${paymentId} and completed_at is null), 0)::numeric(12,2)::text as pending,
      (select count(*) filter (where kind = 'dispute') > count(*) filter (where kind = 'dispute_won') from payments where reverses_payment_id = ${paymentId}) as disputed`.execute(db);
  return row.rows[0]!;
}

export type RefundOutcome = { refunded: true; effects: BillingEffects } | { skipped: 'done' | 'gone' };

/**
 * The `provider-refund` job: re-reads the request (done: skipped), asks the provider, then records
 * the reversal and closes the request in one transaction; the webhook that reports the same
 * refund records nothing more (the same system key). What it means for access comes back as effects.
 */
export async function carryOutRefund(
  deps: { db: DB; provider: PaymentProvider; clock: Clock },
  data: { paymentId: string; amount: string; reversalKey: string },
): Promise<RefundOutcome> {
  const request = await deps.db
    .selectFrom('refund_requests as q')
    .innerJoin('payments as p', 'p.id', 'q.payment_id')
    .select(['q.completed_at', 'q.amount', 'p.id as payment_id', 'p.provider', 'p.provider_ref'])
    .where('q.reversal_key', '=', data.reversalKey)
    .executeTakeFirst();
  if (!request || request.payment_id !== data.paymentId) return { skipped: 'gone' };
  if (request.completed_at) return { skipped: 'done' };
  if (request.provider !== deps.provider.name) throw new Error(`payment ${data.paymentId} belongs to ${request.provider}, not ${deps.provider.name}`);
  if (!request.provider_ref) throw new Error(`payment ${data.paymentId} has no provider reference to refund`);
  const { ref } = await deps.provider.refund(request.provider_ref, request.amount, data.reversalKey);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const effects = noEffects();
    const reversal = await recordReversal(trx, { paymentId: data.paymentId, kind: 'refund', amount: request.amount, providerRef: ref, systemKey: data.reversalKey, now });
    await completeRefundRequest(trx, data.reversalKey, now);
    if (reversal) {
      const change = await accessAfterReversal(trx, reversal.charge.subscriptionId, { now, mayRestore: false });
      if (change) effects.entitlements.push(change);
    }
    return { refunded: true as const, effects };
  });
}
