import { sql, type ExpressionBuilder } from 'kysely';
import type { PaymentKind, PaymentLabel } from '../../common/billing-dtos';
import { readCents } from '../../core/db/cents';
import type { Database } from '../../core/db/schema';

/**
 * What the reversal rows of a charge add up to (docs/payments.md, "Refunds and disputes"): the
 * money refunded so far, and whether a dispute is open or was lost (a dispute row without its
 * dispute_won). Read by the Payment History's labels, the admin's screen and the refund rule.
 */
export interface ReversalState {
  /** positive, 0 when none */
  refundedCents: number;
  disputed: boolean;
}

/**
 * A lateral subquery of `payments as p`'s reversals, as `rv.refunded` (cents, a sum as pg answers
 * it: `reversalState` reads it) and `rv.disputed`:
 *   db.selectFrom('payments as p').leftJoinLateral(reversalsOf, (j) => j.onTrue())
 */
export function reversalsOf(eb: ExpressionBuilder<Database & { p: Database['payments'] }, 'p'>) {
  return eb
    .selectFrom('payments as r')
    .select([
      sql<string>`coalesce(-sum(r.amount_cents) filter (where r.kind = 'refund'), 0)::text`.as('refunded'),
      sql<boolean>`count(*) filter (where r.kind = 'dispute') > count(*) filter (where r.kind = 'dispute_won')`.as('disputed'),
    ])
    .whereRef('r.reverses_payment_id', '=', 'p.id')
    .as('rv');
}

/** `rv`'s columns as a ReversalState (null ones: none). */
export function reversalState(rv: { refunded: string | null; disputed: boolean | null }): ReversalState {
  return { refundedCents: readCents(rv.refunded ?? '0'), disputed: Boolean(rv.disputed) };
}

/** The Payment History's word for a row, from its kind, status and reversals. */
export function paymentLabel(row: { kind: PaymentKind; status: string; amountCents: number }, reversals: ReversalState): PaymentLabel {
  if (row.kind === 'refund') return 'refund';
  if (row.kind === 'dispute') return 'chargeback';
  if (row.kind === 'dispute_won') return 'dispute-won';
  if (row.status === 'failed') return 'failed';
  // before reversal rows, a duplicate checkout's refund was this status (domain/billing/duplicate-checkout.ts)
  if (row.status === 'refunded') return 'refunded';
  if (reversals.disputed) return 'disputed';
  const refunded = reversals.refundedCents;
  if (refunded > 0 && refunded >= row.amountCents) return 'refunded';
  return refunded > 0 ? 'partly-refunded' : 'paid';
}
