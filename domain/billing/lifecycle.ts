import { BILLING_TEXTS } from '../../common/texts';
import type { DB } from '../../core/db/kysely';
import { providerNamed } from '../../core/payments';
import type { PaymentProvider } from '../../core/payments/provider';
import { creatorUnavailable } from './billing.queries';
import { activeSubscriptionWhere } from '../subscriptions/active';
import { updateSubscription } from '../subscriptions/write';
import type { Clock } from '../../core/clock';
import { BillingError } from './errors';
import { notifyCancellation } from './effects';
import type { QueuedEntry } from '../../core/outbox/outbox';

/**
 * The fan's own subscription that is active at `at`; anyone else's id, or an ended one, is 'not
 * found' (a foreign id reads the same as an unknown one).
 */
async function ownActiveSubscription(db: DB, userId: string, id: string, at: Date) {
  const row = await db
    .selectFrom('subscriptions as s')
    .select(['s.id', 's.provider', 's.provider_subscription_id', 's.cancel_at_period_end'])
    .where('s.id', '=', id)
    .where('s.subscriber_id', '=', userId)
    .where(activeSubscriptionWhere('s', at))
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new BillingError('NOT_FOUND', BILLING_TEXTS.subscriptionNotFound);
  return row;
}

/** Whether the subscription's creator is private, hidden or suspended now (./billing.queries.ts creatorUnavailable). */
async function subscriptionCreatorUnavailable(db: DB, subscriptionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 't.creator_id')
    .leftJoin('users as cu', 'cu.id', 't.creator_id')
    .select(['ps.profile_visibility as creator_visibility', 'cu.suspended_at as creator_suspended_at'])
    .where('s.id', '=', subscriptionId)
    .where('t.creator_id', 'is not', null)
    .executeTakeFirst();
  return Boolean(row && creatorUnavailable(row));
}

/**
 * Cancel keeps what was paid for: access runs to the period end, then the maintenance job ends the
 * subscription (no renewal, no refund: fees are non-refundable, spec part 2 §1). Resume before then
 * undoes it. A subscription its provider renews (Stripe) is told first, through the provider named
 * on its row, so Stripe does not renew it either.
 */
export async function setCancelAtPeriodEnd(
  deps: { db: DB; provider: PaymentProvider; clock: Clock },
  userId: string,
  subscriptionId: string,
  cancel: boolean,
): Promise<QueuedEntry[]> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await ownActiveSubscription(trx, userId, subscriptionId, now);
    if (row.cancel_at_period_end === cancel) return [];
    // nobody resumes paying for a creator turned private, hidden or suspended (docs/payments.md)
    if (!cancel && (await subscriptionCreatorUnavailable(trx, row.id))) {
      throw new BillingError('CONFLICT', BILLING_TEXTS.resumeCreatorUnavailable);
    }
    // told to the provider that runs it (the row's, not whichever is configured now); one that is
    // not configured throws, so the request fails and nothing is written (never a silent no-op)
    if (row.provider_subscription_id) await providerNamed(deps.provider, row.provider).setCancelAtPeriodEnd(row.provider_subscription_id, cancel);
    // a cancelled subscription does not move to another tier either
    await updateSubscription(
      trx,
      row.id,
      { cancelAtPeriodEnd: cancel, ...(cancel ? { nextTierId: null, nextPrice: null } : { creatorUnavailableAt: null }) },
      now,
    );
    // the creator hears of a cancellation (returned for dispatch after the commit); a resume tells nobody
    return cancel ? notifyCancellation(trx, row.id, now) : [];
  });
}
