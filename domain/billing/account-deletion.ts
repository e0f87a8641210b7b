import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { capabilitiesOf } from '../../core/payments/capabilities';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { createPayout, deletionPayoutKey, writeOffNegativeBalance } from '../earnings/payouts';
import { noEffects, type BillingEffects } from './effects';
import { BillingError } from './errors';
import { decideRefund, proRataRefund, PROVIDER_CALL_JOB_OPTIONS } from './refunds';

export const cancelProviderSubscriptionJobId = (provider: string, providerSubscriptionId: string) =>
  `cancel-provider-subscription-${provider}-${providerSubscriptionId}`;

export interface EndedByDeletion {
  /** provider calls to dispatch after the commit (their outbox rows are written already) */
  outbox: QueuedEntry[];
  /** the fans of a deleted creator lose access: announced after the commit */
  effects: BillingEffects;
  /** fans refunded the unused part of their period */
  refunds: number;
  /** cents of a creator's balance below zero the platform bears (Delete Account only; a 'loss' row) */
  writtenOff: number;
}

/**
 * Before a deletion removes the subscriptions on either side of `userId` (Delete All Data,
 * Delete Account; docs/payments.md "Deletions"), in the deletion's transaction:
 * - every one the provider renews (Stripe's) is cancelled there now, by a `cancel-provider-
 *   subscription` job from the outbox, retried until the provider confirms: nobody is charged
 *   for a subscription that no longer exists here;
 * - a fan whose creator is going gets the unused part of the current period back, pro rata by
 *   days, from the period's last charge (`provider-refund`, written once per subscription and
 *   period), decided here: its amount reserved and the creator's share off their balance now.
 *   A fan deleting their own account is not refunded: fees are non-refundable.
 * - the creator is paid what is available after those refunds (a payout keyed by this deletion);
 * - when the account itself goes (`accountGoes`), a balance still below zero is written off as the
 *   platform's loss, with its reason (it can no longer be recovered from later earnings).
 */
export async function endSubscriptionsOfDeletedUser(trx: DB, userId: string, now: Date, opts: { accountGoes: boolean }): Promise<EndedByDeletion> {
  const rows = await trx
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .select(['s.id', 's.subscriber_id', 's.provider', 's.provider_subscription_id', 's.current_period_start', 's.current_period_end', 't.creator_id'])
    .where('s.status', '=', 'active')
    .where((eb) => eb.or([eb('s.subscriber_id', '=', userId), eb('t.creator_id', '=', userId)]))
    // a renewal run holding one of them finishes first; one starting later finds it gone
    .forUpdate('s')
    .execute();
  const lastCharges = rows.length
    ? await trx
        .selectFrom('payments')
        .distinctOn('subscription_id')
        .select(['subscription_id', 'id', 'amount_cents'])
        .where('subscription_id', 'in', rows.map((r) => r.id))
        .where('kind', '=', 'charge')
        .where('status', '=', 'succeeded')
        .orderBy('subscription_id')
        .orderBy('created_at', 'desc')
        .execute()
    : [];
  const lastCharge = new Map(lastCharges.map((c) => [c.subscription_id, c]));
  const out: EndedByDeletion = { outbox: [], effects: noEffects(), refunds: 0, writtenOff: 0 };
  for (const s of rows) {
    // a subscription the provider renews is stopped there too (a name no provider has is tried, and its job fails visibly)
    if (capabilitiesOf(s.provider)?.renewsItself !== false && s.provider_subscription_id) {
      out.outbox.push(
        await addToOutbox(trx, {
          queue: 'maintenance',
          name: 'cancel-provider-subscription',
          data: { provider: s.provider, providerSubscriptionId: s.provider_subscription_id },
          jobId: cancelProviderSubscriptionJobId(s.provider, s.provider_subscription_id),
          options: PROVIDER_CALL_JOB_OPTIONS,
        }),
      );
    }
    const creatorGoing = s.creator_id === userId && s.subscriber_id !== userId;
    if (!creatorGoing) continue;
    out.effects.entitlements.push({ userId: s.subscriber_id, creatorId: s.creator_id, active: false });
    const charge = lastCharge.get(s.id);
    if (!charge || s.current_period_end <= now) continue;
    const amountCents = proRataRefund(readCents(charge.amount_cents), s.current_period_start, s.current_period_end, now);
    if (amountCents === 0) continue;
    // decided now, under the charge's lock: the amount reserved and the creator's share taken off
    // their balance before the payout below reads it (issue 45 item 1)
    const decided = await decideRefund(trx, { paymentId: charge.id, amountCents, systemKey: `prorata-refund-${s.id}-${s.current_period_end.getTime()}`, now });
    if (!decided) continue;
    out.outbox.push(decided.job);
    out.refunds += 1;
  }
  // a creator who goes is paid what is available after those refunds (issue 26, issue 45): a payout
  // of it all, no minimum, to the account kept on the payout row (it outlives the account), under
  // a key of this deletion's own; none without a payout account with payouts enabled, or with
  // nothing available (Settings says so beforehand)
  try {
    const { job } = await createPayout(trx, { creatorId: userId, trigger: 'deletion', key: deletionPayoutKey(userId, now), minimumCents: 1 }, now);
    if (job) out.outbox.push(job);
  } catch (error) {
    if (!(error instanceof BillingError)) throw error;
  }
  // the account itself goes: a balance left below zero cannot be recovered from later earnings
  if (opts.accountGoes) out.writtenOff = await writeOffNegativeBalance(trx, userId, now);
  return out;
}
