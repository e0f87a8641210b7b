import type { JobData } from '../../common/jobs';
import { toCents } from '../../common/money';
import { billingSubscriptionFailures } from '../../core/metrics';
import { providerNamed } from '../../core/payments';
import { builtinProvider } from '../../core/payments/builtin';
import { undoDuplicateCheckout } from '../../domain/billing/duplicate-checkout';
import { applyBillingEffects } from '../../domain/billing/effects';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { carryOutRefund } from '../../domain/billing/refunds';
import { earningsPolicy } from '../../domain/earnings/policy';
import type { WorkerDeps } from '../registry';

/** What the log may say about a failure: its kind and message, never the error's other fields (SQL parameters, request bodies). */
export function describeFailure(error: unknown): { name: string; code?: string; message: string } {
  if (!(error instanceof Error)) return { name: 'unknown', message: String(error).slice(0, 200) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, ...(typeof code === 'string' && { code }), message: error.message.slice(0, 200) };
}

/**
 * The `billing-maintenance` job (every 10 minutes, worker/workers.ts): the lifecycle run of
 * domain/billing/maintenance.ts, then what it leaves to announce: `entitlement:changed` to fans
 * whose subscription lapsed, and the jobs it wrote to the outbox with each change (receipts for
 * renewals, reminder mails, the mail to fans whose creator turned private or hidden; jobIds from
 * the payment, or the subscription and period, so a second run queues nothing twice). A
 * subscription a step failed for is logged (its id, the step and the error's kind) and counted in
 * `billing_subscription_failures_total{step}`; the run goes on and a later one retries it.
 * Built-in-provider subscriptions renew here; with Stripe configured they still do (old ones), and
 * Stripe's renew through its webhooks but are told here to stop when their creator turns private
 * or hidden. Tests pass their own clock and provider in deps (`{ ...app.deps, clock, payments }`).
 */
export async function billingMaintenance(deps: WorkerDeps, opts: { batchSize?: number } = {}) {
  const configured = deps.payments;
  const provider = configured.flow === 'direct' ? configured : builtinProvider;
  const managedProvider = configured.renewsItself ? configured : null;
  const run = await runBillingMaintenance({
    db: deps.db, provider, managedProvider, clock: deps.clock, earnings: earningsPolicy(deps.config), ...(opts.batchSize && { batchSize: opts.batchSize }),
  });
  for (const f of run.failures) {
    billingSubscriptionFailures.inc({ step: f.step });
    deps.log.error({ subscriptionId: f.subscriptionId, step: f.step, error: describeFailure(f.error) }, 'billing step failed for a subscription; retried at a later run');
  }
  await applyBillingEffects(deps, run.effects);
  return {
    renewed: run.renewed, pastDue: run.pastDue, expired: run.expired, reminders: run.reminders.length,
    creatorUnavailable: run.creatorUnavailable.length, failures: run.failures.length,
  };
}

/**
 * The `undo-duplicate-checkout` job (queued after a webhook's commit, domain/billing/effects.ts):
 * a second checkout's subscription cancelled now and its payment refunded through the configured
 * provider, then its refund row in the ledger. A provider error fails the attempt; BullMQ retries it.
 */
export async function undoDuplicateCheckoutJob(deps: WorkerDeps, data: { paymentId: string; providerSubscriptionId: string | null }) {
  const outcome = await undoDuplicateCheckout({ db: deps.db, provider: deps.payments, clock: deps.clock }, data);
  if ('skipped' in outcome && outcome.skipped === 'not-a-duplicate') deps.log.warn({ paymentId: data.paymentId }, 'undo-duplicate-checkout refused: not a duplicate checkout');
  return outcome;
}

/** The `cancel-provider-subscription` job (from the outbox, domain/billing/account-deletion.ts). */
export async function cancelProviderSubscriptionJob(deps: WorkerDeps, data: { provider: string; providerSubscriptionId: string }) {
  await providerNamed(deps.payments, data.provider).cancelNow(data.providerSubscriptionId);
  return { cancelled: data.providerSubscriptionId };
}

/**
 * The `provider-refund` job (from the outbox, domain/billing/refunds.ts: a deleted creator's fans'
 * pro rata refunds, an admin's refunds): the provider refunds, the reversal is recorded once, and
 * what it means for access follows (a refund in full ends it; the fan's sockets hear
 * `entitlement:changed`).
 */
export async function providerRefundJob(deps: WorkerDeps, data: JobData<'maintenance', 'provider-refund'>) {
  const amountCents = 'amountCents' in data ? data.amountCents : toCents(data.amount);
  const request = { paymentId: data.paymentId, amountCents, systemKey: data.systemKey };
  const outcome = await carryOutRefund({ db: deps.db, providerFor: (name) => providerNamed(deps.payments, name), clock: deps.clock }, request);
  if ('refundedCents' in outcome) {
    deps.log.info({ paymentId: data.paymentId, amountCents: outcome.refundedCents }, 'refunded at the provider');
    await applyBillingEffects(deps, outcome.effects);
    return { refundedCents: outcome.refundedCents, reversalId: outcome.reversalId };
  }
  return outcome;
}
