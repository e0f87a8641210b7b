import { sql } from 'kysely';
import { SELLING_TEXTS } from '../../common/selling';
import { TIP_TEXTS } from '../../common/tip-texts';
import { maySell } from '../people/verification';
import { BILLING_TEXTS } from '../../common/texts';
import { fromCents } from '../../common/money';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { TipReceivedEvent } from '../../common/socket-events';
import { BillingError } from './errors';
import { creatorUnavailable } from './billing.queries';
import { chargeOneOff, type OneOffOutcome } from './one-off';
import type { BillingDeps } from './billing-deps';

export interface TipRequest {
  userId: string;
  creatorUsername: string;
  /** whole cents, within TIP_MIN..TIP_MAX (common/tip-schemas.ts) */
  amountCents: number;
  message: string | null;
  idempotencyKey: string;
  /** what the fan confirmed paying, in cents: must be `amountCents` */
  confirmedCents: number;
}

/** What the creator is told live (tip:received), and the fan's answer. */
export interface TipRecord {
  paymentId: string;
  creatorId: string;
  creatorName: string;
  fanId: string;
  fanUsername: string;
  fanDisplayName: string | null;
  amountCents: number;
  message: string | null;
  createdAt: Date;
}

export type TipOutcome = OneOffOutcome<TipRecord>;

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
    .select(['p.id', 'p.purpose', 'p.creator_id', 'p.amount_cents', 'p.tip_message', 'p.created_at', 'fp.username', 'fp.display_name'])
    .where('p.user_id', '=', userId)
    .where('p.idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * A tip (issue 27 item 1): one confirmed charge from a fan to a creator that buys nothing and
 * unlocks nothing, on the one path of one-off purchases (./one-off.ts): the amount the fan
 * confirmed, one charge per client key under the pair's advisory lock (a double press or a retry
 * gets the first tip back, never a second charge), written with purpose 'tip' so the fan's
 * history, the receipt mail and the earnings split take it like any charge. A private, hidden or
 * suspended creator, someone who is not a creator, and the fan themself are refused.
 */
export async function sendTip(deps: BillingDeps, req: TipRequest): Promise<TipOutcome> {
  const creator = await findTipTarget(deps.db, req.creatorUsername);
  if (creator?.id === req.userId) throw new BillingError('FORBIDDEN', TIP_TEXTS.selfTip);
  if (!creator || !creator.is_creator || creatorUnavailable(creator)) throw new BillingError('NOT_FOUND', TIP_TEXTS.creatorNotFound);
  if (req.confirmedCents !== req.amountCents) throw new BillingError('CONFLICT', TIP_TEXTS.amountMismatch);
  const creatorName = creator.display_name || creator.username;
  // a tip is money to the creator like any sale: not before their identity is verified (issue 47 item 1)
  if (!(await maySell(deps.db, creator.id, deps.provider.name))) throw new BillingError('FORBIDDEN', SELLING_TEXTS.tipsClosed(creatorName));
  let fan: { username: string; display_name: string | null } = { username: '', display_name: null };

  return chargeOneOff(deps, req, {
    creatorId: creator.id,
    returnPath: `/${creator.username}`,
    texts: { failed: TIP_TEXTS.failed },
    async repeat(trx) {
      const done = await findTipByKey(trx, req.userId, req.idempotencyKey);
      if (!done) return null;
      // the same press again: the first tip, unless the key was spent on something else
      if (done.purpose !== 'tip' || done.creator_id !== creator.id) throw new BillingError('CONFLICT', BILLING_TEXTS.requestKeyUsed);
      return {
        paymentId: done.id, creatorId: creator.id, creatorName, fanId: req.userId, fanUsername: done.username, fanDisplayName: done.display_name,
        amountCents: readCents(done.amount_cents), message: done.tip_message, createdAt: done.created_at,
      };
    },
    async item(trx) {
      fan = await trx.selectFrom('profiles').select(['username', 'display_name']).where('id', '=', req.userId).executeTakeFirstOrThrow();
      return { purpose: 'tip', creatorId: creator.id, amountCents: req.amountCents, description: TIP_TEXTS.description(creatorName), tipMessage: req.message };
    },
    answer: (item, paymentId, at) => ({
      paymentId, creatorId: creator.id, creatorName, fanId: req.userId, fanUsername: fan.username, fanDisplayName: fan.display_name,
      amountCents: item.amountCents, message: req.message, createdAt: at,
    }),
  });
}

/** What the creator's open tabs hear of a tip (`tip:received`): from the tip's own answer, or read back after a webhook wrote it. */
export function tipReceivedEvent(tip: Pick<TipRecord, 'paymentId' | 'fanId' | 'fanUsername' | 'fanDisplayName' | 'amountCents' | 'message' | 'createdAt'>): TipReceivedEvent {
  return {
    tipId: tip.paymentId, fanId: tip.fanId, fanUsername: tip.fanUsername, fanDisplayName: tip.fanDisplayName, amount: fromCents(tip.amountCents), message: tip.message,
    createdAt: tip.createdAt.toISOString(),
  };
}

/** A tip written by the webhook, read back for its creator's live event. */
export async function findTipEvent(db: DB, paymentId: string): Promise<{ creatorId: string; event: TipReceivedEvent } | null> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('profiles as fp', 'fp.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.creator_id', 'p.amount_cents', 'p.tip_message', 'p.created_at', 'fp.username', 'fp.display_name'])
    .where('p.id', '=', paymentId)
    .where('p.purpose', '=', 'tip')
    .executeTakeFirst();
  if (!row?.creator_id || !row.user_id) return null;
  const event = tipReceivedEvent({
    paymentId: row.id, fanId: row.user_id, fanUsername: row.username, fanDisplayName: row.display_name, amountCents: readCents(row.amount_cents), message: row.tip_message, createdAt: row.created_at,
  });
  return { creatorId: row.creator_id, event };
}
