import { payoutRunFailures } from '../../core/metrics';
import { providerNamed } from '../../core/payments';
import { describeFailure } from './billing';
import { applyBillingEffects, noEffects } from '../../domain/billing/effects';
import { carryOutPayout, runScheduledPayouts } from '../../domain/earnings/payouts';
import { earningsPolicy } from '../../domain/earnings/policy';
import { reconcileDay } from '../../domain/earnings/reconciliation';
import { DAY_MS } from '../../domain/billing/periods';
import type { WorkerDeps } from '../registry';

/**
 * The `send-payout` job (from the outbox, domain/earnings/payouts.ts): the transfer through the
 * provider that holds the payout account, then the payout paid, or failed with the amount back and
 * the creator's mail queued. A provider that cannot be reached fails the attempt (retried with the
 * same transfer key). Tests pass their own clock.
 */
export async function sendPayoutJob(deps: WorkerDeps, data: { payoutId: string }) {
  const outcome = await carryOutPayout({ db: deps.db, providerFor: (name) => providerNamed(deps.payments, name), clock: deps.clock }, data.payoutId);
  if ('failed' in outcome) {
    deps.log.warn({ payoutId: data.payoutId, reason: outcome.failed }, 'payout refused by the provider: amount returned to the balance');
    await applyBillingEffects(deps, { ...noEffects(), jobs: outcome.jobs });
    return { failed: outcome.failed };
  }
  if ('paidCents' in outcome) {
    // the creator's notification, written with the payout's settlement
    await applyBillingEffects(deps, { ...noEffects(), jobs: outcome.jobs });
    return { paidCents: outcome.paidCents };
  }
  return outcome;
}

/**
 * The `reconcile-ledger` job: yesterday (UTC) and today reconciled (domain/earnings/reconciliation.ts);
 * each mismatch is logged (kind and reference, no amounts of anyone's) and kept for /admin/payments.
 */
export async function reconcileLedgerJob(deps: WorkerDeps) {
  const now = deps.clock.now();
  let mismatches = 0;
  for (const day of [new Date(now.getTime() - DAY_MS), now]) {
    const found = await reconcileDay({ db: deps.db, providerFor: (name) => providerNamed(deps.payments, name) }, day);
    for (const m of found) deps.log.warn({ provider: m.provider, kind: m.kind, ref: m.ref }, 'ledger reconciliation: a mismatch');
    mismatches += found.length;
  }
  return { mismatches };
}

/**
 * The `weekly-payouts` job (hourly): this payout week's automatic payouts, then their transfer jobs
 * queued. A creator whose payout threw is logged (id and the error's kind, no SQL parameters) and
 * counted in `payout_run_failures_total`; the others are paid all the same.
 */
export async function weeklyPayoutsJob(deps: WorkerDeps) {
  const run = await runScheduledPayouts({ db: deps.db, clock: deps.clock, earnings: earningsPolicy(deps.config) });
  for (const f of run.failures) {
    payoutRunFailures.inc();
    deps.log.error({ creatorId: f.creatorId, error: describeFailure(f.error) }, 'scheduled payout failed for a creator; the run went on, a later run this week tries again');
  }
  await applyBillingEffects(deps, { ...noEffects(), jobs: run.jobs });
  return { created: run.created, failures: run.failures.length };
}
