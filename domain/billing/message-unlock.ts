import { PAID_MESSAGE_TEXTS as T } from '../../common/paid-message-texts';
import type { DB } from '../../core/db/kysely';
import { messageUnlockedBy } from '../access/messaging.queries';
import { notifyPurchase } from '../notifications/money';
import { addReceipt, noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { creatorUnavailable, insertPayment, lockPair } from './billing.queries';
import type { BillingDeps } from './purchase';

export interface MessageUnlockRequest {
  userId: string;
  messageId: string;
  /** the price the fan confirmed: must be the message's */
  confirmedAmount: string;
  idempotencyKey: string;
}

export interface MessageUnlockOutcome {
  paymentId: string;
  messageId: string;
  senderId: string;
  recipientId: string;
  amount: string;
  repeated: boolean;
  effects: BillingEffects;
}

function findPricedMessage(db: DB, messageId: string) {
  return db
    .selectFrom('messages as m')
    .innerJoin('profiles as pr', 'pr.id', 'm.sender_id')
    .innerJoin('users as u', 'u.id', 'm.sender_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'm.sender_id')
    .select(['m.id', 'm.sender_id', 'm.recipient_id', 'm.price', 'pr.username', 'pr.display_name', 'ps.profile_visibility as creator_visibility', 'u.suspended_at as creator_suspended_at'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

/** The fan's charge for the message, if any, and whether it still holds (no refund, no open dispute). */
function findUnlockCharge(db: DB, userId: string, messageId: string) {
  return db
    .selectFrom('payments as p')
    .select(['p.id', 'p.amount', messageUnlockedBy('p.message_id', 'p.user_id').as('holds')])
    .where('p.user_id', '=', userId)
    .where('p.message_id', '=', messageId)
    .where('p.purpose', '=', 'message_unlock')
    .where('p.kind', '=', 'charge')
    .executeTakeFirst();
}

/**
 * Buying a pay-per-view message's file (issue 27 item 3), on the rails of a tip (./tip.ts): the
 * price the fan confirmed, the pair's lock, one charge per (fan, message) (a double press, a retry,
 * another tab: the first charge answers; payments_message_unlock_key backs it), written by
 * `insertPayment` with purpose 'message_unlock' so the history, receipt, creator's notification and
 * earnings split take it like any charge. Only the message's recipient buys; anyone else is told
 * 'Message not found', and its sender that it is their own.
 */
export async function unlockMessage(deps: BillingDeps, req: MessageUnlockRequest): Promise<MessageUnlockOutcome> {
  const message = await findPricedMessage(deps.db, req.messageId);
  if (!message || (message.recipient_id !== req.userId && message.sender_id !== req.userId)) throw new BillingError('NOT_FOUND', T.messageNotFound);
  if (message.sender_id === req.userId) throw new BillingError('FORBIDDEN', T.ownMessage);
  if (message.price === null) throw new BillingError('CONFLICT', T.notForSale);
  const price = Number(message.price).toFixed(2);
  if (creatorUnavailable(message)) throw new BillingError('NOT_FOUND', T.messageNotFound);
  if (req.confirmedAmount !== price) throw new BillingError('CONFLICT', T.amountMismatch);
  // a one-off Checkout needs its own webhook path (issue 27 item 6), as for tips
  if (deps.provider.flow === 'checkout') throw new BillingError('PAYMENT_FAILED', T.stripeNotYet);
  const creatorName = message.display_name || message.username;
  const base = { messageId: message.id, senderId: message.sender_id, recipientId: message.recipient_id };

  return deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, req.userId, message.sender_id);
    const done = await findUnlockCharge(trx, req.userId, message.id);
    if (done) {
      // bought already (this press's twin, another tab): the first charge; one taken back stays so
      if (!done.holds) throw new BillingError('CONFLICT', T.failed);
      return { ...base, paymentId: done.id, amount: done.amount, repeated: true, effects: noEffects() };
    }
    const spent = await trx.selectFrom('payments').select('id').where('user_id', '=', req.userId).where('idempotency_key', '=', req.idempotencyKey).executeTakeFirst();
    if (spent) throw new BillingError('CONFLICT', T.amountMismatch);
    const now = deps.clock.now();
    const description = T.description(creatorName);
    const charge = await deps.provider.charge({ userId: req.userId, amount: price, description, idempotencyKey: req.idempotencyKey });
    if (!charge.ok) throw new BillingError('PAYMENT_FAILED', T.failed);
    const paymentId = await insertPayment(trx, {
      userId: req.userId,
      tierId: null,
      creatorId: message.sender_id,
      subscriptionId: null,
      description,
      idempotencyKey: req.idempotencyKey,
      amount: price,
      provider: deps.provider.name,
      providerRef: charge.ref,
      status: 'succeeded',
      createdAt: now,
      earnings: deps.earnings,
      messageUnlock: { messageId: message.id },
    });
    return { ...base, paymentId, amount: price, repeated: false, effects: { ...noEffects(), jobs: [await addReceipt(trx, paymentId), ...(await notifyPurchase(trx, { paymentId }))] } };
  });
}
