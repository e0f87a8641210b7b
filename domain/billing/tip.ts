import { sql } from 'kysely';
import { TIP_TEXTS } from '../../common/tip-texts';
import type { DB } from '../../core/db/kysely';
import { notifyPurchase } from '../notifications/money';
import { addReceipt, noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { creatorUnavailable, insertPayment, lockPair } from './billing.queries';
import type { BillingDeps } from './purchase';

export interface TipRequest {
  userId: string;
  creatorUsername: string;
  /** '50.00', within TIP_MIN..TIP_MAX (common/tip-schemas.ts) */
  amount: string;
  message: string | null;
  idempotencyKey: string;
  /** what the fan confirmed paying: must be `amount` */
  confirmedAmount: string;
}

/** What the creator is told live (tip:received), and the fan's answer. */
export interface TipRecord {
  paymentId: string;
  creatorId: string;
  creatorName: string;
  fanId: string;
  fanUsername: string;
  fanDisplayName: string | null;
  amount: string;
  message: string | null;
  createdAt: Date;
}

export type TipOutcome = { tip: TipRecord; effects: BillingEffects; repeated: boolean };

async function findTipTarget(db: DB, username: string) {
  return db
    .selectFrom('profiles as pr')
    .innerJoin('users as u', 'u.id', 'pr.id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
    .select(['pr.id', 'pr.username', 'pr.display_name', 'pr.is_creator', 'ps.profile_visibility as creator_visibility', 'u.suspended_at as creator_suspended_at'])
    .where(sql`lower(pr.username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

async function findTipByKey(db: DB, userId: string, idempotencyKey: string) {
  return db
    .selectFrom('payments as p')
    .innerJoin('profiles as fp', 'fp.id', 'p.user_id')
    .select(['p.id', 'p.purpose', 'p.creator_id', 'p.amount', 'p.tip_message', 'p.created_at', 'fp.username', 'fp.display_name'])
    .where('p.user_id', '=', userId)
    .where('p.idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * A tip (issue 27 item 1): one confirmed charge from a fan to a creator that buys nothing and
 * unlocks nothing. The same rails as a subscription (./purchase.ts): the amount the fan confirmed,
 * one payment row per client key under the pair's advisory lock (a double press or a retry gets
 * the first tip back, never a second charge), written by `insertPayment` with purpose 'tip' so the
 * fan's history, the receipt mail and the earnings split take it like any charge. A private,
 * hidden or suspended creator, someone who is not a creator, and the fan themself are refused.
 */
export async function sendTip(deps: BillingDeps, req: TipRequest): Promise<TipOutcome> {
  const creator = await findTipTarget(deps.db, req.creatorUsername);
  if (creator?.id === req.userId) throw new BillingError('FORBIDDEN', TIP_TEXTS.selfTip);
  if (!creator || !creator.is_creator || creatorUnavailable(creator)) throw new BillingError('NOT_FOUND', TIP_TEXTS.creatorNotFound);
  if (req.confirmedAmount !== req.amount) throw new BillingError('CONFLICT', TIP_TEXTS.amountMismatch);
  // a one-off Checkout needs its own webhook path (issue 27 item 6); refused rather than half done
  if (deps.provider.flow === 'checkout') throw new BillingError('PAYMENT_FAILED', TIP_TEXTS.stripeNotYet);
  const creatorName = creator.display_name || creator.username;

  return deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, req.userId, creator.id);
    const done = await findTipByKey(trx, req.userId, req.idempotencyKey);
    if (done) {
      // the same press again: the first tip, unless the key was spent on something else
      if (done.purpose !== 'tip' || done.creator_id !== creator.id) throw new BillingError('CONFLICT', TIP_TEXTS.amountMismatch);
      const tip = {
        paymentId: done.id, creatorId: creator.id, creatorName, fanId: req.userId, fanUsername: done.username, fanDisplayName: done.display_name,
        amount: done.amount, message: done.tip_message, createdAt: done.created_at,
      };
      return { tip, effects: noEffects(), repeated: true };
    }
    const fan = await trx.selectFrom('profiles').select(['username', 'display_name']).where('id', '=', req.userId).executeTakeFirstOrThrow();
    const now = deps.clock.now();
    const description = TIP_TEXTS.description(creatorName);
    const charge = await deps.provider.charge({ userId: req.userId, amount: req.amount, description, idempotencyKey: req.idempotencyKey });
    if (!charge.ok) throw new BillingError('PAYMENT_FAILED', TIP_TEXTS.failed);
    const paymentId = await insertPayment(trx, {
      userId: req.userId,
      tierId: null,
      creatorId: creator.id,
      subscriptionId: null,
      description,
      idempotencyKey: req.idempotencyKey,
      amount: req.amount,
      provider: deps.provider.name,
      providerRef: charge.ref,
      status: 'succeeded',
      createdAt: now,
      earnings: deps.earnings,
      tip: { message: req.message },
    });
    const tip = {
      paymentId, creatorId: creator.id, creatorName, fanId: req.userId, fanUsername: fan.username, fanDisplayName: fan.display_name,
      amount: req.amount, message: req.message, createdAt: now,
    };
    return { tip, effects: { ...noEffects(), jobs: [await addReceipt(trx, paymentId), ...(await notifyPurchase(trx, { paymentId }))] }, repeated: false };
  });
}
