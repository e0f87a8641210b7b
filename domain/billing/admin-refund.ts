import { sql } from 'kysely';
import { fromCents, toCents } from '../../common/money';
import { REFUND_TEXTS } from '../../common/payment-texts';
import type { DB } from '../../core/db/kysely';
import type { Clock } from '../../core/clock';
import type { QueuedEntry } from '../../core/outbox/outbox';
import { BillingError } from './errors';
import { decideRefund, queueRefund } from './refunds';

/**
 * An admin refunds a charge, in full or in part (docs/payments.md, "Refunds and disputes"), in one
 * transaction: the charge locked, the amount checked against what is left (its amount − refunds
 * recorded − refunds still pending), a refund_requests row (the 'refund pending' marker) and the
 * outbox row of the `provider-refund` job (./refunds.ts: data the payment, the amount and the
 * system key, nothing secret). The job asks the provider with the system key as its idempotency
 * key, then records the reversal once and closes the request. The system key comes from the
 * admin's idempotency key, so a double press is one refund.
 */

const systemKeyFor = (idempotencyKey: string) => `admin-refund-${idempotencyKey}`;

export interface RefundRequested {
  paymentId: string;
  amount: string;
  /** the job to queue after the commit (it is already in the outbox) */
  job: QueuedEntry;
}

export async function requestRefund(
  deps: { db: DB; reachable: (providerName: string) => boolean; clock: Clock },
  req: { adminId: string; paymentId: string; amount: string; idempotencyKey: string },
): Promise<RefundRequested> {
  const systemKey = systemKeyFor(req.idempotencyKey);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const charge = await trx.selectFrom('payments').select(['id', 'kind', 'status', 'amount', 'provider']).where('id', '=', req.paymentId).forUpdate().executeTakeFirst();
    if (!charge) throw new BillingError('NOT_FOUND', REFUND_TEXTS.paymentNotFound);
    // the same press again (a retry, a double click): the first request's answer
    const earlier = await trx.selectFrom('refund_requests').select(['payment_id', 'amount']).where('reversal_key', '=', systemKey).executeTakeFirst();
    if (earlier) {
      if (earlier.payment_id !== charge.id) throw new BillingError('CONFLICT', REFUND_TEXTS.refundFailed);
      const job = await queueRefund(trx, { paymentId: charge.id, amount: earlier.amount, systemKey });
      return { paymentId: charge.id, amount: earlier.amount, job };
    }
    if (charge.kind !== 'charge' || charge.status !== 'succeeded') throw new BillingError('CONFLICT', REFUND_TEXTS.notRefundable);
    if (!deps.reachable(charge.provider)) throw new BillingError('CONFLICT', REFUND_TEXTS.otherProvider);
    const state = await refundState(trx, charge.id);
    if (state.disputed) throw new BillingError('CONFLICT', REFUND_TEXTS.disputed);
    const left = toCents(charge.amount) - toCents(state.refunded) - toCents(state.pending);
    if (left <= 0) throw new BillingError('CONFLICT', REFUND_TEXTS.nothingLeft);
    if (toCents(req.amount) > left) throw new BillingError('CONFLICT', REFUND_TEXTS.amountTooHigh(`R${fromCents(left)}`));
    // reserved under the same lock, the creator's share taken now (./refund-requests.ts)
    const decided = await decideRefund(trx, { paymentId: charge.id, amount: req.amount, systemKey, requestedBy: req.adminId, now });
    if (!decided) throw new BillingError('CONFLICT', REFUND_TEXTS.nothingLeft);
    return { paymentId: charge.id, amount: decided.amount, job: decided.job };
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
