import { postName } from '../../common/post-name';
import { POST_UNLOCK_TEXTS as T } from '../../common/post-unlock-texts';
import { BILLING_TEXTS } from '../../common/texts';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { loadViewer, postAccess, toFacts } from '../access/access';
import { BillingError } from './errors';
import { chargeOneOff, type OneOffOutcome } from './one-off';
import type { BillingDeps } from './billing-deps';

export interface UnlockRequest {
  userId: string;
  postId: string;
  idempotencyKey: string;
  /** what the fan confirmed paying, in cents: must be the post's price now */
  confirmedCents: number;
}

export interface UnlockRecord {
  paymentId: string;
  postId: string;
  creatorId: string;
  amountCents: number;
}

export type UnlockOutcome = OneOffOutcome<UnlockRecord>;

async function findUnlockTarget(db: DB, postId: string) {
  return db
    .selectFrom('posts')
    .innerJoin('profiles as pr', 'pr.id', 'posts.creator_id')
    .innerJoin('users as u', 'u.id', 'posts.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select([
      'posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'posts.unlock_price_cents', 'posts.unlock_mode', 'posts.title',
      'ps.profile_visibility', 'pr.username', 'pr.display_name', 'u.suspended_at',
    ])
    .where('posts.id', '=', postId)
    .executeTakeFirst();
}

async function findUnlockByKey(db: DB, userId: string, idempotencyKey: string) {
  return db
    .selectFrom('payments as p')
    .leftJoin('post_unlocks as pu', 'pu.payment_id', 'p.id')
    .select(['p.id', 'p.purpose', 'p.amount_cents', 'p.creator_id', 'pu.post_id'])
    .where('p.user_id', '=', userId)
    .where('p.idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * A pay-per-view post bought (issue 27 item 2; docs/payments.md): one confirmed charge of the
 * post's price on the one path of one-off purchases (./one-off.ts): the amount the fan confirmed
 * must be the price now, one charge per client key under the fan and creator's advisory lock (a
 * double press or a retry gets the first unlock back), written with purpose 'post_unlock' with the
 * `post_unlocks` row the access rule reads (domain/access/access.ts), in the same transaction.
 * Refused: the fan's own post, a post the fan may not see (answered as not found), a post without
 * a price, and a fan who can already see it (bought before, or a subscriber of a post free to
 * subscribers).
 */
export async function unlockPost(deps: BillingDeps, req: UnlockRequest): Promise<UnlockOutcome> {
  const post = await findUnlockTarget(deps.db, req.postId);
  if (!post) throw new BillingError('NOT_FOUND', T.postNotFound);
  if (post.creator_id === req.userId) throw new BillingError('FORBIDDEN', T.ownPost);
  if (post.suspended_at !== null) throw new BillingError('NOT_FOUND', T.postNotFound);

  return chargeOneOff(deps, req, {
    creatorId: post.creator_id,
    returnPath: `/post/${post.id}`,
    texts: { failed: T.failed },
    repeat: async (trx) => {
      const done = await findUnlockByKey(trx, req.userId, req.idempotencyKey);
      // the same press again: the first unlock, unless the key was spent on something else
      if (done && (done.purpose !== 'post_unlock' || done.post_id !== post.id)) throw new BillingError('CONFLICT', BILLING_TEXTS.requestKeyUsed);
      return done ? { paymentId: done.id, postId: post.id, creatorId: post.creator_id, amountCents: readCents(done.amount_cents) } : null;
    },
    async item(trx) {
      // the row again, now under the lock: a price changed meanwhile is what the fan did not confirm
      const now = await findUnlockTarget(trx, req.postId);
      if (!now) throw new BillingError('NOT_FOUND', T.postNotFound);
      const facts = toFacts(now);
      const access = postAccess(await loadViewer(trx, req.userId, [facts]), facts);
      if (!access.visible) throw new BillingError('NOT_FOUND', T.postNotFound);
      if (now.unlock_price_cents === null) throw new BillingError('CONFLICT', T.notForSale);
      if (access.canViewMedia) throw new BillingError('CONFLICT', T.alreadyUnlocked);
      const amountCents = now.unlock_price_cents;
      if (req.confirmedCents !== amountCents) throw new BillingError('CONFLICT', T.priceChanged);
      const description = T.description(now.display_name || now.username, postName({ title: now.title, creator: { displayName: now.display_name, username: now.username } }));
      return { purpose: 'post_unlock', creatorId: now.creator_id, amountCents, description, postId: now.id };
    },
    answer: (item, paymentId) => ({ paymentId, postId: post.id, creatorId: post.creator_id, amountCents: item.amountCents }),
  });
}
