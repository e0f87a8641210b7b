import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';
import { updateSubscription } from '../subscriptions/write';
import { setPremiumFlag } from './billing.queries';
import type { BillingEffects } from './effects';

/**
 * What a reversal means for access (docs/payments.md, "Refunds and disputes"), decided here once for
 * the webhook and the admin's refund alike, inside the reversal's transaction:
 * - the subscription a charge paid for ends at once ('canceled': ended early, whatever its period
 *   end says) while any of its charges is disputed (a dispute without its dispute_won), or when
 *   the charge that paid for the current period (its latest) is refunded in full. A partial
 *   refund, or a full refund of an earlier period's charge, leaves access alone;
 * - a dispute won gives it back (`mayRestore`) when nothing above still holds, its period is still
 *   running, and the provider has not ended the subscription (asked by the caller beforehand).
 * Returns the entitlement change, if any, for the effects applied after the commit.
 */
export async function accessAfterReversal(
  trx: DB,
  subscriptionId: string | null,
  opts: { now: Date; mayRestore: boolean },
): Promise<BillingEffects['entitlements'][number] | null> {
  if (!subscriptionId) return null;
  const sub = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.id', 's.subscriber_id', 's.status', 's.current_period_end', 't.creator_id'])
    .where('s.id', '=', subscriptionId)
    .forUpdate('s')
    .executeTakeFirst();
  if (!sub) return null;
  const denied = await reversalDeniesAccess(trx, sub.id);
  const entitlement = (active: boolean) => ({ userId: sub.subscriber_id, creatorId: sub.creator_id, active });
  if (sub.status === 'active' && denied) {
    await updateSubscription(trx, sub.id, { status: 'canceled', graceUntil: null }, opts.now);
    if (sub.creator_id === null) await setPremiumFlag(trx, sub.subscriber_id, opts.now);
    return entitlement(false);
  }
  if (sub.status === 'canceled' && !denied && opts.mayRestore && sub.current_period_end > opts.now) {
    await updateSubscription(trx, sub.id, { status: 'active' }, opts.now);
    if (sub.creator_id === null) await setPremiumFlag(trx, sub.subscriber_id, opts.now);
    return entitlement(true);
  }
  return null;
}

/** Whether the subscription's charges hold a dispute not won back, or its latest charge is refunded in full. */
async function reversalDeniesAccess(trx: DB, subscriptionId: string): Promise<boolean> {
  const row = await sql<{ disputed: boolean; refunded_in_full: boolean }>`
    with charges as (
      select c.id, c.amount_cents, c.created_at,
        coalesce(sum(r.amount_cents) filter (where r.kind = 'refund'), 0) as refunds,
        count(r.id) filter (where r.kind = 'dispute') > count(r.id) filter (where r.kind = 'dispute_won') as disputed
      from payments c left join payments r on r.reverses_payment_id = c.id
      where c.subscription_id = ${subscriptionId} and c.kind = 'charge' and c.status = 'succeeded'
      group by c.id
    )
    select coalesce(bool_or(disputed), false) as disputed,
      coalesce((select refunds < 0 and amount_cents + refunds <= 0 from charges order by created_at desc, id desc limit 1), false) as refunded_in_full
    from charges`.execute(trx);
  const state = row.rows[0];
  return Boolean(state?.disputed || state?.refunded_in_full);
}

/**
 * What a reversal of an unlock's charge means for the unlock (docs/payments.md, "Refunds and
 * disputes"), inside the reversal's transaction: a full refund or an open dispute revokes it; a
 * dispute won, with nothing else holding, restores it. Returns the entitlement change, if any.
 */
export async function unlockAfterReversal(
  trx: DB,
  chargeId: string,
  opts: { now: Date; mayRestore: boolean },
): Promise<BillingEffects['entitlements'][number] | null> {
  const unlock = await trx
    .selectFrom('post_unlocks as pu')
    .innerJoin('posts', 'posts.id', 'pu.post_id')
    .select(['pu.id', 'pu.fan_id', 'pu.post_id', 'pu.revoked_at', 'posts.creator_id'])
    .where('pu.payment_id', '=', chargeId)
    .forUpdate('pu')
    .executeTakeFirst();
  if (!unlock) return null;
  const state = await sql<{ denied: boolean }>`
    select (count(r.id) filter (where r.kind = 'dispute') > count(r.id) filter (where r.kind = 'dispute_won'))
      or (c.amount_cents + coalesce(sum(r.amount_cents) filter (where r.kind = 'refund'), 0) <= 0) as denied
    from payments c left join payments r on r.reverses_payment_id = c.id
    where c.id = ${chargeId}
    group by c.id, c.amount_cents`.execute(trx);
  const denied = Boolean(state.rows[0]?.denied);
  const change = (active: boolean) => ({ userId: unlock.fan_id, creatorId: unlock.creator_id, active, postId: unlock.post_id });
  if (denied && unlock.revoked_at === null) {
    await trx.updateTable('post_unlocks').set({ revoked_at: opts.now }).where('id', '=', unlock.id).execute();
    return change(false);
  }
  if (!denied && unlock.revoked_at !== null && opts.mayRestore) {
    await trx.updateTable('post_unlocks').set({ revoked_at: null }).where('id', '=', unlock.id).execute();
    return change(true);
  }
  return null;
}
