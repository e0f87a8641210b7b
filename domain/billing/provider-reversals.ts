import type { DB } from '../../core/db/kysely';
import type { ChargeRef, PaymentProvider, ProviderCharge } from '../../core/payments/provider';
import { closeLostDispute } from '../earnings/disputes';
import { accessAfterReversal, unlockAfterReversal } from './reversal-access';
import { completeRefundRequest } from './refund-requests';
import { recordReversal } from './reversals';
import type { BillingEffects } from './effects';

/**
 * Refunds and disputes the provider reports (charge.refunded, charge.dispute.created/closed), as
 * reversal rows of their own (./reversals.ts), once each by their system key:
 *   a refund: `<reversal key>` when we asked for it (an admin's refund or a duplicate checkout's,
 *     found in the refund's metadata), else `stripe-refund-<refund id>` (one made in the dashboard);
 *     the provider's list of the charge's refunds is the truth, so a partial refund, a second
 *     partial one and a redelivery each add exactly what is new;
 *   a dispute: `stripe-dispute-<id>` (the amount taken back) and, once won, `stripe-dispute-won-<id>`
 *     (the amount returned); once lost, its 'dispute_lost' journal (`dispute-lost-<row>`), which
 *     takes it off the open disputes. A dispute closed before its opening arrived records both.
 */

export type ChargeEvent =
  | { kind: 'charge-refunded'; charge: ChargeRef }
  | { kind: 'dispute-opened'; disputeId: string; charge: ChargeRef; amountCents: number }
  | { kind: 'dispute-closed'; disputeId: string; charge: ChargeRef; amountCents: number; won: boolean };

/** Asked of the provider before the event's transaction: the charge's refs and refunds, and whether its subscription ended there. */
export interface ChargeFacts {
  charge: ProviderCharge;
  subscriptionEnded: boolean;
}

export async function chargeFacts(deps: { db: DB; provider: PaymentProvider }, event: ChargeEvent): Promise<ChargeFacts> {
  const charge = await deps.provider.chargeInfo(event.charge);
  let subscriptionEnded = false;
  if (event.kind === 'dispute-closed' && event.won) {
    const payment = await findCharge(deps.db, deps.provider.name, charge.refs);
    const sub = payment?.subscription_id
      ? await deps.db.selectFrom('subscriptions').select('provider_subscription_id').where('id', '=', payment.subscription_id).executeTakeFirst()
      : undefined;
    if (sub?.provider_subscription_id) subscriptionEnded = await deps.provider.subscriptionEnded(sub.provider_subscription_id);
  }
  return { charge, subscriptionEnded };
}

/** Inside the event's transaction (its billing_events row written): 'ignored' when the charge is not ours. */
export async function applyChargeEvent(
  trx: DB,
  provider: string,
  event: ChargeEvent,
  facts: ChargeFacts,
  effects: BillingEffects,
  now: Date,
): Promise<'applied' | 'ignored'> {
  const payment = await findCharge(trx, provider, facts.charge.refs);
  if (!payment) return 'ignored';
  switch (event.kind) {
    case 'charge-refunded':
      for (const refund of facts.charge.refunds) {
        const systemKey = refund.reversalKey ?? `stripe-refund-${refund.id}`;
        await recordReversal(trx, { paymentId: payment.id, kind: 'refund', amountCents: refund.amountCents, providerRef: refund.id, systemKey, now });
        // an admin's refund reported before its job recorded it: the request is done
        if (refund.reversalKey) await completeRefundRequest(trx, refund.reversalKey, now);
      }
      break;
    case 'dispute-opened':
      await recordReversal(trx, { paymentId: payment.id, kind: 'dispute', amountCents: event.amountCents, providerRef: event.disputeId, systemKey: `stripe-dispute-${event.disputeId}`, now });
      break;
    case 'dispute-closed': {
      const dispute = await recordReversal(trx, { paymentId: payment.id, kind: 'dispute', amountCents: event.amountCents, providerRef: event.disputeId, systemKey: `stripe-dispute-${event.disputeId}`, now });
      if (event.won) {
        await recordReversal(trx, { paymentId: payment.id, kind: 'dispute_won', amountCents: event.amountCents, providerRef: null, systemKey: `stripe-dispute-won-${event.disputeId}`, now });
      } else if (dispute) {
        await closeLostDispute(trx, { disputeId: dispute.id, now });
      }
      break;
    }
  }
  const mayRestore = event.kind === 'dispute-closed' && event.won && !facts.subscriptionEnded;
  const change = await accessAfterReversal(trx, payment.subscription_id, { now, mayRestore });
  if (change) effects.entitlements.push(change);
  const unlock = await unlockAfterReversal(trx, payment.id, { now, mayRestore: event.kind === 'dispute-closed' && event.won });
  if (unlock) effects.entitlements.push(unlock);
  return 'applied';
}

/** The ledger's charge the provider's references name (a charge, its PaymentIntent or its invoice). */
async function findCharge(db: DB, provider: string, refs: string[]) {
  if (refs.length === 0) return undefined;
  return db
    .selectFrom('payments')
    .select(['id', 'subscription_id'])
    .where('provider', '=', provider)
    .where('kind', '=', 'charge')
    // 'refunded': a duplicate checkout's charge from before reversal rows, already out of every sum
    .where('status', '=', 'succeeded')
    .where('provider_ref', 'in', refs)
    .executeTakeFirst();
}
