import type { DB } from '../../core/db/kysely';
import type { QueuedEntry } from '../../core/outbox/outbox';
import { notify } from './notify';

const entries = (entry: QueuedEntry | null) => (entry ? [entry] : []);

/** What a one-off payment bought, and so where its creator's row leads: the post unlocked, or (a tip, a message) the fan. */
export type PurchaseSubject = { type: 'post'; id: string } | { type: 'user'; id: string };

/**
 * A one-off payment to a creator (a tip, a pay-per-view post or message), in the transaction that
 * writes its payment row and only on that first write (a repeated idempotency key returns before
 * it): the creator is told who paid ('Ava sent you a tip', 'Ava bought your content'). Every kind
 * of purchase calls this one function with its payment's id; a subscription's charges are told by
 * domain/billing/effects.ts (new subscriber, renewal) instead.
 */
export async function notifyPurchase(trx: DB, p: { paymentId: string; subject?: PurchaseSubject }): Promise<QueuedEntry[]> {
  const payment = await trx
    .selectFrom('payments')
    .select(['user_id', 'creator_id', 'purpose', 'created_at'])
    .where('id', '=', p.paymentId)
    .where('kind', '=', 'charge')
    .executeTakeFirst();
  if (!payment?.creator_id || !payment.user_id || payment.purpose === 'subscription') return [];
  return entries(
    await notify(trx, {
      userId: payment.creator_id,
      kind: payment.purpose === 'tip' ? 'tip' : 'purchase',
      actorId: payment.user_id,
      subject: p.subject ?? { type: 'user', id: payment.user_id },
      at: payment.created_at,
    }),
  );
}

/** A payout settled (the `send-payout` job's transaction): its creator is told it was sent, or that it failed and why to look. */
export async function notifyPayout(trx: DB, p: { payoutId: string; creatorId: string; outcome: 'sent' | 'failed'; at: Date }): Promise<QueuedEntry[]> {
  return entries(
    await notify(trx, {
      userId: p.creatorId,
      kind: p.outcome === 'sent' ? 'payout-sent' : 'payout-failed',
      actorId: null,
      subject: { type: 'payout', id: p.payoutId },
      at: p.at,
    }),
  );
}
