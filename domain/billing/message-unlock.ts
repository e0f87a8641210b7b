import { PAID_MESSAGE_TEXTS as T } from '../../common/paid-message-texts';
import { BILLING_TEXTS } from '../../common/texts';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { BillingError } from './errors';
import { creatorUnavailable } from './billing.queries';
import { findUnlockCharge } from './message-unlock.queries';
import { chargeOneOff, type OneOffOutcome } from './one-off';
import type { BillingDeps } from './billing-deps';

export interface MessageUnlockRequest {
  userId: string;
  messageId: string;
  /** the price the fan confirmed, in cents: must be the message's */
  confirmedCents: number;
  idempotencyKey: string;
}

export interface MessageUnlockRecord {
  paymentId: string;
  messageId: string;
  senderId: string;
  recipientId: string;
  amountCents: number;
}

export type MessageUnlockOutcome = OneOffOutcome<MessageUnlockRecord>;

function findPricedMessage(db: DB, messageId: string) {
  return db
    .selectFrom('messages as m')
    .innerJoin('profiles as pr', 'pr.id', 'm.sender_id')
    .innerJoin('users as u', 'u.id', 'm.sender_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'm.sender_id')
    .select(['m.id', 'm.sender_id', 'm.recipient_id', 'm.price_cents', 'pr.username', 'pr.display_name', 'ps.profile_visibility as creator_visibility', 'u.suspended_at as creator_suspended_at'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
}

/**
 * Buying a pay-per-view message's file (issue 27 item 3), on the one path of one-off purchases
 * (./one-off.ts): the price the fan confirmed, the pair's lock, one charge per (fan, message) (a
 * double press, a retry, another tab: the first charge answers; payments_message_unlock_key backs
 * it), written with purpose 'message_unlock' so the history, receipt, creator's notification and
 * earnings split take it like any charge. Only the message's recipient buys; anyone else is told
 * 'Message not found', and its sender that it is their own.
 */
export async function unlockMessage(deps: BillingDeps, req: MessageUnlockRequest): Promise<MessageUnlockOutcome> {
  const message = await findPricedMessage(deps.db, req.messageId);
  if (!message || (message.recipient_id !== req.userId && message.sender_id !== req.userId)) throw new BillingError('NOT_FOUND', T.messageNotFound);
  if (message.sender_id === req.userId) throw new BillingError('FORBIDDEN', T.ownMessage);
  const price = readCents(message.price_cents);
  if (price === null) throw new BillingError('CONFLICT', T.notForSale);
  if (creatorUnavailable(message)) throw new BillingError('NOT_FOUND', T.messageNotFound);
  if (req.confirmedCents !== price) throw new BillingError('CONFLICT', T.amountMismatch);
  const base = { messageId: message.id, senderId: message.sender_id, recipientId: message.recipient_id };

  return chargeOneOff(deps, req, {
    creatorId: message.sender_id,
    returnPath: `/messages/${message.username}`,
    texts: { failed: T.failed },
    async repeat(trx) {
      const done = await findUnlockCharge(trx, req.userId, message.id);
      if (!done) return null;
      // bought already (this press's twin, another tab): the first charge; one taken back stays so
      if (!done.holds) throw new BillingError('CONFLICT', T.failed);
      return { ...base, paymentId: done.id, amountCents: readCents(done.amount_cents) };
    },
    async item(trx) {
      // a key spent on something else; a pending charge of this key is checked by the one path
      const spent = await trx.selectFrom('payments').select('id').where('user_id', '=', req.userId).where('idempotency_key', '=', req.idempotencyKey).executeTakeFirst();
      if (spent) throw new BillingError('CONFLICT', BILLING_TEXTS.requestKeyUsed);
      return { purpose: 'message_unlock', creatorId: message.sender_id, amountCents: price, description: T.description(message.display_name || message.username), messageId: message.id };
    },
    answer: (item, paymentId) => ({ ...base, paymentId, amountCents: item.amountCents }),
  });
}
