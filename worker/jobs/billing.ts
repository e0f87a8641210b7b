import { paymentProviderFor, providerNamed } from '../../core/payments';
import { builtinProvider } from '../../core/payments/builtin';
import type { PaymentProvider } from '../../core/payments/provider';
import { systemClock, type Clock } from '../../domain/billing/clock';
import { undoDuplicateCheckout } from '../../domain/billing/duplicate-checkout';
import { applyBillingEffects } from '../../domain/billing/effects';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { carryOutRefund } from '../../domain/billing/refunds';
import type { WorkerDeps } from '../registry';

/**
 * The `billing-maintenance` job (every 10 minutes, worker/workers.ts): the lifecycle run of
 * domain/billing/maintenance.ts, then what it leaves to announce: `entitlement:changed` to fans
 * whose subscription lapsed, receipts for renewals, reminder mails (outbox rows written with the
 * renewal or the reminder's mark, jobIds from the payment or the subscription and period, so a
 * second run queues nothing twice). Built-in-provider
 * subscriptions renew here; with Stripe configured they still do (old ones), and Stripe's renew
 * through its webhooks. Tests pass their own clock and provider.
 */
export async function billingMaintenance(deps: WorkerDeps, opts: { clock?: Clock; provider?: PaymentProvider } = {}) {
  const configured = paymentProviderFor(deps.config);
  const provider = opts.provider ?? (configured.flow === 'direct' ? configured : builtinProvider);
  const run = await runBillingMaintenance({ db: deps.db, provider, clock: opts.clock ?? systemClock });
  await applyBillingEffects(deps, run.effects);
  return { renewed: run.renewed, pastDue: run.pastDue, expired: run.expired, reminders: run.reminders.length };
}

/**
 * The `undo-duplicate-checkout` job (queued after a webhook's commit, domain/billing/effects.ts):
 * a second checkout's subscription cancelled now and its payment refunded through the configured
 * provider, then the ledger row 'refunded'. A provider error fails the attempt; BullMQ retries it.
 */
export async function undoDuplicateCheckoutJob(deps: WorkerDeps, data: { paymentId: string; providerSubscriptionId: string | null }) {
  const outcome = await undoDuplicateCheckout({ db: deps.db, provider: paymentProviderFor(deps.config) }, data);
  if ('skipped' in outcome && outcome.skipped === 'not-a-duplicate') deps.log.warn({ paymentId: data.paymentId }, 'undo-duplicate-checkout refused: not a duplicate checkout');
  return outcome;
}

/** The `cancel-provider-subscription` job (from the outbox, domain/billing/account-deletion.ts). */
export async function cancelProviderSubscriptionJob(deps: WorkerDeps, data: { provider: string; providerSubscriptionId: string }) {
  await providerNamed(deps.config, data.provider).cancelNow(data.providerSubscriptionId);
  return { cancelled: data.providerSubscriptionId };
}

/** The `provider-refund` job (from the outbox, domain/billing/refunds.ts). Tests pass their own clock. */
export async function providerRefundJob(deps: WorkerDeps, data: { paymentId: string; amount: string; systemKey: string }, clock: Clock = systemClock) {
  const outcome = await carryOutRefund({ db: deps.db, providerFor: (name) => providerNamed(deps.config, name), clock }, data);
  if ('refunded' in outcome) deps.log.info({ paymentId: data.paymentId, amount: outcome.refunded }, 'refunded at the provider');
  return outcome;
}
