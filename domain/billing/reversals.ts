import { sql } from 'kysely';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { PaymentKind } from '../../core/db/schema';
import { splitPayments } from '../earnings/split';

export type ReversalKind = Exclude<PaymentKind, 'charge'>;

export interface ReversalRequest {
  /** the charge it reverses */
  paymentId: string;
  kind: ReversalKind;
  /** how much, positive whole cents: stored negative for a refund or a dispute, positive for a dispute won */
  amountCents: number;
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
  charge: { id: string; userId: string | null; creatorId: string | null; subscriptionId: string | null; amountCents: number };
}

/**
 * A refund, a dispute or a dispute won back, as a ledger row of its own (docs/payments.md): the
 * charge keeps its amount and its status, the reversal carries the signed amount and points at
 * the charge, so every sum over the ledger is net. Once per `systemKey` (its own unique index).
 * Called inside the transaction that applies the provider's word; the caller decides what the
 * reversal means for access (a full refund or an open dispute ends it, a dispute won restores it).
 */
export async function recordReversal(trx: DB, req: ReversalRequest): Promise<ReversalOutcome | null> {
  if (!Number.isSafeInteger(req.amountCents) || req.amountCents <= 0) throw new RangeError(`A reversal's amount is positive whole cents, not ${req.amountCents}`);
  // the charge row is locked: two reversals of one charge (a webhook and an admin's refund) queue up
  const charge = await trx
    .selectFrom('payments')
    .select(['id', 'user_id', 'tier_id', 'creator_id', 'subscription_id', 'description', 'amount_cents', 'currency', 'provider', 'kind'])
    .where('id', '=', req.paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!charge || charge.kind !== 'charge') return null;
  const signed = req.kind === 'dispute_won' ? req.amountCents : -req.amountCents;
  const inserted = await trx
    .insertInto('payments')
    .values({
      user_id: charge.user_id,
      tier_id: charge.tier_id,
      creator_id: charge.creator_id,
      subscription_id: charge.subscription_id,
      description: charge.description,
      amount_cents: signed,
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
    charge: { id: charge.id, userId: charge.user_id, creatorId: charge.creator_id, subscriptionId: charge.subscription_id, amountCents: readCents(charge.amount_cents) },
  };
}

/**
 * What is left of a charge after its refunds (cents, 0 when refunded in full): an admin's
 * refund may not exceed it. Disputes are the card network's, not refunds, and do not count here.
 */
export async function refundableCents(db: DB, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('payments as c')
    .select(sql<string>`(c.amount_cents + coalesce((select sum(r.amount_cents) from payments r where r.reverses_payment_id = c.id and r.kind = 'refund'), 0))::text`.as('left'))
    .where('c.id', '=', paymentId)
    .where('c.kind', '=', 'charge')
    .executeTakeFirst();
  return row ? readCents(row.left) : 0;
}
