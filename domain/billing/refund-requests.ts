import { sql } from 'kysely';
import { readCents, withCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { giveBackRefundShare, takeRefundShare } from '../earnings/split';

/**
 * A refund is decided before it is made (docs/payments.md, "Refunds are decided before they are
 * made"): every path that refunds (an admin's, a deleted creator's fans' pro rata refunds, a
 * duplicate purchase, a duplicate checkout) decides it here, in the transaction of the change that
 * causes it, under the charge's lock (`select … for update` on its payment row):
 *   - the amount is at most what is left of the charge: its amount less the refunds recorded and
 *     less the refunds decided and not yet made (their refund_requests rows), so two refunds of one
 *     charge decided at once never add up to more than the charge;
 *   - a refund_requests row holds the amount, fixed: the job sends that amount to the provider on
 *     every try (under the request's key), never one recomputed later;
 *   - the creator's share comes off their balance now (takeRefundShare), before any payout decided
 *     later can pay it out.
 * The same key again answers the first decision.
 */
export interface RefundDecision {
  /** the charge */
  paymentId: string;
  /** whole cents, positive: what to refund, capped at what is left of the charge */
  amountCents: number;
  /** the reversal's system key (the provider's idempotency key too) */
  systemKey: string;
  /** the admin who asked, null for refunds the system decides */
  requestedBy?: string | null;
  now: Date;
}

export type RefundDecided = { requestId: string; amountCents: number; created: boolean };

/** What is left to refund of a charge (cents): its amount less refunds recorded and refunds decided and not made yet. */
export async function refundLeftCents(db: DB, paymentId: string): Promise<number> {
  const row = await sql<{ left: string }>`
    select (c.amount_cents
      + coalesce((select sum(r.amount_cents) from payments r where r.reverses_payment_id = c.id and r.kind = 'refund'), 0)
      - coalesce((select sum(q.amount_cents) from refund_requests q where q.payment_id = c.id and q.completed_at is null), 0))::text as left
    from payments c where c.id = ${paymentId} and c.kind = 'charge'`.execute(db);
  return row.rows[0] ? readCents(row.rows[0].left) : 0;
}

/**
 * Decides a refund in the caller's transaction (see above). Null when nothing is left of the charge
 * (or it is not a succeeded charge), or when the refund under this key was made already.
 */
export async function decideRefundAmount(trx: DB, d: RefundDecision): Promise<RefundDecided | null> {
  const charge = await trx.selectFrom('payments').select(['id', 'kind', 'status']).where('id', '=', d.paymentId).forUpdate().executeTakeFirst();
  const earlier = await trx.selectFrom('refund_requests').select(['id', 'payment_id', 'amount_cents']).where('reversal_key', '=', d.systemKey).executeTakeFirst();
  if (earlier) {
    if (earlier.payment_id !== d.paymentId) throw new Error(`refund key ${d.systemKey} belongs to another charge`);
    return { requestId: earlier.id, amountCents: readCents(earlier.amount_cents), created: false };
  }
  if (!charge || charge.kind !== 'charge' || charge.status !== 'succeeded') return null;
  if (await trx.selectFrom('payments').select('id').where('system_key', '=', d.systemKey).executeTakeFirst()) return null;
  const cents = Math.min(d.amountCents, await refundLeftCents(trx, charge.id));
  if (cents <= 0) return null;
  const request = await trx
    .insertInto('refund_requests')
    .values({ payment_id: charge.id, amount_cents: cents, reversal_key: d.systemKey, requested_by: d.requestedBy ?? null, created_at: d.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await takeRefundShare(trx, { requestId: request.id, chargeId: charge.id, amountCents: cents, now: d.now });
  return { requestId: request.id, amountCents: cents, created: true };
}

/** The decided refund under this key, if any: its fixed amount, and whether it is still to be made. */
export async function findRefundRequest(db: DB, systemKey: string) {
  const row = await db.selectFrom('refund_requests').select(['id', 'payment_id', 'amount_cents', 'completed_at']).where('reversal_key', '=', systemKey).executeTakeFirst();
  return row && withCents(row, ['amount_cents']);
}

/** A decided refund was made (its reversal row is written, by the job or by the provider's webhook first): closed. */
export async function completeRefundRequest(trx: DB, reversalKey: string, now: Date): Promise<void> {
  await trx.updateTable('refund_requests').set({ completed_at: now }).where('reversal_key', '=', reversalKey).where('completed_at', 'is', null).execute();
}

/**
 * A decided refund that will not be made (the charge was refunded elsewhere meanwhile, leaving the
 * provider less than its amount): closed, and the creator's share taken for it given back.
 */
export async function dropRefundRequest(trx: DB, systemKey: string, now: Date): Promise<void> {
  const request = await trx.selectFrom('refund_requests').select('id').where('reversal_key', '=', systemKey).forUpdate().executeTakeFirst();
  if (!request) return;
  await trx.updateTable('refund_requests').set({ completed_at: now }).where('id', '=', request.id).where('completed_at', 'is', null).execute();
  await giveBackRefundShare(trx, request.id, now);
}
