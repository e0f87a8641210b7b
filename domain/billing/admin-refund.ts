import { sql } from 'kysely';
import { fromCents } from '../../common/money';
import { REFUND_TEXTS } from '../../common/payment-texts';
import { readCents } from '../../core/db/cents';
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
  amountCents: number;
  /** the job to queue after the commit (it is already in the outbox) */
  job: QueuedEntry;
}

export async function requestRefund(
  deps: { db: DB; reachable: (providerName: string) => boolean; clock: Clock },
  req: { adminId: string; paymentId: string; amountCents: number; idempotencyKey: string },
): Promise<RefundRequested> {
  const systemKey = systemKeyFor(req.idempotencyKey);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const charge = await trx.selectFrom('payments').select(['id', 'kind', 'status', 'amount_cents', 'provider']).where('id', '=', req.paymentId).forUpdate().executeTakeFirst();
    if (!charge) throw new BillingError('NOT_FOUND', REFUND_TEXTS.paymentNotFound);
    // the same press again (a retry, a double click): the first request's answer
    const earlier = await trx.selectFrom('refund_requests').select(['payment_id', 'amount_cents']).where('reversal_key', '=', systemKey).executeTakeFirst();
    if (earlier) {
      if (earlier.payment_id !== charge.id) throw new BillingError('CONFLICT', REFUND_TEXTS.refundFailed);
      const amountCents = readCents(earlier.amount_cents);
      const job = await queueRefund(trx, { paymentId: charge.id, amountCents, systemKey });
      return { paymentId: charge.id, amountCents, job };
    }
    if (charge.kind !== 'charge' || charge.status !== 'succeeded') throw new BillingError('CONFLICT', REFUND_TEXTS.notRefundable);
    if (!deps.reachable(charge.provider)) throw new BillingError('CONFLICT', REFUND_TEXTS.otherProvider);
    const state = await refundState(trx, charge.id);
    if (state.disputed) throw new BillingError('CONFLICT', REFUND_TEXTS.disputed);
    const left = readCents(charge.amount_cents) - readCents(state.refunded) - readCents(state.pending);
    if (left <= 0) throw new BillingError('CONFLICT', REFUND_TEXTS.nothingLeft);
    if (req.amountCents > left) throw new BillingError('CONFLICT', REFUND_TEXTS.amountTooHigh(`R${fromCents(left)}`));
    // reserved under the same lock, the creator's share taken now (./refund-requests.ts)
    const decided = await decideRefund(trx, { paymentId: charge.id, amountCents: req.amountCents, systemKey, requestedBy: req.adminId, now });
    if (!decided) throw new BillingError('CONFLICT', REFUND_TEXTS.nothingLeft);
    return { paymentId: charge.id, amountCents: decided.amountCents, job: decided.job };
  });
}

/** A charge's refunds recorded, refunds requested and not yet confirmed, and whether a dispute holds it. */
async function refundState(db: DB, paymentId: string) {
  const row = await sql<{ refunded: string; pending: string; disputed: boolean }>`
    select
      coalesce((select -sum(amount_cents) from payments where reverses_payment_id = ${paymentId} and kind = 'refund'), 0)::text as refunded,
      coalesce((select sum(amount_cents) from refund_requests where payment_id = ${paymentId} and completed_at is null), 0)::text as pending,
      (select count(*) filter (where kind = 'dispute') > count(*) filter (where kind = 'dispute_won') from payments where reverses_payment_id = ${paymentId}) as disputed`.execute(db);
  return row.rows[0]!;
}
