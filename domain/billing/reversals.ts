import { sql } from 'kysely';
import { toCents } from '../../common/money';
import type { DB } from '../../core/db/kysely';
import type { PaymentKind } from '../../core/db/schema';
import { splitPayments } from '../earnings/split';

export type ReversalKind = Exclude<PaymentKind, 'charge'>;

export interface ReversalRequest {
  /** the charge it reverses */
  paymentId: string;
  kind: ReversalKind;
  /** how much, positive rand ('12.50'): stored negative for a refund or a dispute, positive for a dispute won */
  amount: string;
  /** the provider's id for the refund or dispute, when it has one */
  providerRef: string | null;
  /** the system's key for this reversal (e.g. `refund-<provider refund id>`): a repeat writes nothing */
  systemKey: string;
  now: Date;
}

export interface ReversalOutcome {
  /** the reversal's row (the earlier one, for a repeat) */
  id: string;
  /** false: the same reversal was recorded before; nothing changed */
  created: boolean;
  charge: { id: string; userId: string | null; creatorId: string | null; subscriptionId: string | null; amount: string };
}

/**
 * A refund, a dispute or a dispute won back, as a ledger row of its own (docs/payments.md): the
 * charge keeps its amount and its status, the reversal carries the signed amount and points at
 * the charge, so every sum over the ledger is net. Once per `systemKey` (its own unique index).
 * Called inside the transaction that applies the provider's word; the caller decides what the
 * reversal means for access (a full refund or an open dispute ends it, a dispute won restores it).
 */
export async function recordReversal(trx: DB, req: ReversalRequest): Promise<ReversalOutcome | null> {
  // toCents refuses what is not an amount in rand; a reversal's amount is also more than nothing
  if (toCents(req.amount) <= 0) throw new RangeError(`A reversal's amount is positive rand, not ${req.amount}`);
  // the charge row is locked: two reversals of one charge (a webhook and an admin's refund) queue up
  const charge = await trx
    .selectFrom('payments')
    .select(['id', 'user_id', 'tier_id', 'creator_id', 'subscription_id', 'description', 'amount', 'currency', 'provider', 'kind'])
    .where('id', '=', req.paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!charge || charge.kind !== 'charge') return null;
  const signed = req.kind === 'dispute_won' ? req.amount : `-${req.amount}`;
  const inserted = await trx
    .insertInto('payments')
    .values({
      user_id: charge.user_id,
      tier_id: charge.tier_id,
      creator_id: charge.creator_id,
      subscription_id: charge.subscription_id,
      description: charge.description,
      amount: signed,
      currency: charge.currency,
      provider: charge.provider,
      provider_ref: req.providerRef,
      status: 'succeeded',
      kind: req.kind,
      reverses_payment_id: charge.id,
      system_key: req.systemKey,
      created_at: req.now,
    })
    .onConflict((oc) => oc.column('system_key').where('system_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  // both sides of the ledger reverse in proportion, in this transaction (domain/earnings/split.ts)
  if (inserted) await splitPayments(trx, [inserted.id]);
  const id = inserted?.id ?? (await trx.selectFrom('payments').select('id').where('system_key', '=', req.systemKey).executeTakeFirstOrThrow()).id;
  return {
    id,
    created: Boolean(inserted),
    charge: { id: charge.id, userId: charge.user_id, creatorId: charge.creator_id, subscriptionId: charge.subscription_id, amount: charge.amount },
  };
}

/**
 * What is left of a charge after its refunds (rand, '0.00' when refunded in full): an admin's
 * refund may not exceed it. Disputes are the card network's, not refunds, and do not count here.
 */
export async function refundableAmount(db: DB, paymentId: string): Promise<string> {
  const row = await db
    .selectFrom('payments as c')
    .select(sql<string>`(c.amount + coalesce((select sum(r.amount) from payments r where r.reverses_payment_id = c.id and r.kind = 'refund'), 0))::numeric(10,2)::text`.as('left'))
    .where('c.id', '=', paymentId)
    .where('c.kind', '=', 'charge')
    .executeTakeFirst();
  return row?.left ?? '0.00';
}
