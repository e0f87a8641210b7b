import { sql } from 'kysely';
import { creatorUnavailableMailJobId, MAIL_JOB_OPTIONS } from '../../common/jobs';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import { capabilitiesOf, SELF_RENEWING_PROVIDERS } from '../../core/payments/capabilities';
import type { PaymentProvider } from '../../core/payments/provider';
import { ownerOnlyProfileWhere } from '../access/access';
import { updateSubscription } from '../subscriptions/write';
import type { EarningsPolicy } from '../earnings/policy';
import { creatorUnavailable, findTierForBilling, insertPayment, setPremiumFlag } from './billing.queries';
import type { Clock } from '../../core/clock';
import { addChargeEffects, addRenewalFailedMail, addRenewalReminder, noEffects, notifyFanOfSubscription, type BillingEffects } from './effects';
import { paymentDescription } from './purchase';
import { DAY_MS, GRACE_DAYS, periodEndFor, REMINDER_DAYS, RENEW_AHEAD_MS, TRIAL_REMINDER_DAYS } from './periods';
import { findBundlePercent } from './bundles.queries';
import { renewalPrice } from './prices';
import { isolatedRow, neverFailedFirst, retryable, setAside, type BillingFailure, type IsolatedRow } from './maintenance-retries';

export { RETRY_AFTER_FAILURE_MS, type BillingFailure, type BillingStep } from './maintenance-retries';

/** Subscriptions handled per run and step; the job runs every few minutes, so a backlog drains. */
const BATCH = 500;

export interface BillingRunResult {
  renewed: number;
  pastDue: number;
  expired: number;
  /** subscriptions set to end because their creator turned private or hidden, with the fan's mail (also in `effects.jobs`) */
  creatorUnavailable: { subscriptionId: string; mail: QueuedEntry }[];
  reminders: { subscriptionId: string; periodEnd: Date }[];
  failures: BillingFailure[];
  effects: BillingEffects;
}

export interface BillingRunDeps {
  db: DB;
  /** charges the renewals this job makes (the built-in provider, or any 'direct' one) */
  provider: PaymentProvider;
  /** the provider whose subscriptions renew themselves (Stripe), told to stop them; null when none is configured */
  managedProvider?: PaymentProvider | null;
  clock: Clock;
  /** rows per step and run (tests make it small) */
  batchSize?: number;
  /** the fee and hold of the earnings ledger (the settings: `earningsPolicy(config)`) */
  earnings: EarningsPolicy;
}

/** One run as its steps see it: one time for all of them, and what they found so far. */
interface BillingRun {
  deps: BillingRunDeps;
  now: Date;
  limit: number;
  out: BillingRunResult;
  /** each subscription's work, isolated from the others' (./maintenance-retries.ts) */
  isolated: IsolatedRow;
}

/**
 * The billing lifecycle, run by the `billing-maintenance` job (docs/payments.md), on `clock`: its
 * steps in this order, each over a batch of subscriptions (see each step).
 * Each subscription is handled in its own transaction: one that throws (a provider error, a row
 * the database refuses) is rolled back, reported in `failures`, and left alone for
 * RETRY_AFTER_FAILURE_MS while every other one goes on. A renewal's payment is keyed by
 * (subscription, period end), so a job that runs twice, or two workers at once, charge a period once.
 */
const STEPS: readonly ((run: BillingRun) => Promise<void>)[] = [stopForUnavailableCreators, renewDue, expireLapsed, remindBeforeRenewal];

export async function runBillingMaintenance(deps: BillingRunDeps): Promise<BillingRunResult> {
  const now = deps.clock.now();
  const out: BillingRunResult = { renewed: 0, pastDue: 0, expired: 0, creatorUnavailable: [], reminders: [], failures: [], effects: noEffects() };
  const run: BillingRun = { deps, now, limit: deps.batchSize ?? BATCH, out, isolated: isolatedRow(deps.db, now, out.failures) };
  for (const step of STEPS) await step(run);
  return out;
}

/**
 * 1. Creator unavailable: nobody pays for a creator they cannot see, or one an admin suspended.
 * Subscriptions to a creator whose profile is private or hidden (nobody but the creator may see
 * it, domain/access) stop renewing: they end at their period end (a Stripe subscription is told
 * first, cancel_at_period_end) and the fan is mailed once.
 */
async function stopForUnavailableCreators({ deps, now, limit, out, isolated }: BillingRun): Promise<void> {
  const unavailable = await deps.db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers as t', 't.id', 'subscriptions.tier_id')
    .innerJoin('users as cu', 'cu.id', 't.creator_id')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 't.creator_id')
    .leftJoin('subscription_billing_retries as r', 'r.subscription_id', 'subscriptions.id')
    .select(['subscriptions.id', setAside])
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.cancel_at_period_end', '=', false)
    .where((eb) => eb.or([ownerOnlyProfileWhere('ps.profile_visibility'), eb('cu.suspended_at', 'is not', null)]))
    .where(retryable(now))
    .orderBy(neverFailedFirst)
    .orderBy('subscriptions.current_period_end')
    .limit(limit)
    .execute();
  for (const row of unavailable) {
    const stopped = await isolated('creator-unavailable', row, () => stopForUnavailableCreator(deps.db, deps.managedProvider ?? null, row.id, now));
    if (!stopped) continue;
    out.creatorUnavailable.push({ subscriptionId: row.id, mail: stopped.mail });
    out.effects.jobs.push(stopped.mail, ...stopped.notice);
  }
}

/**
 * 2. Renew what is due: subscriptions not cancelled whose period ends within RENEW_AHEAD_MS (or
 * is over, within its grace) are charged through the provider at the price the fan agreed to, or
 * the tier's lower price of today (./prices.ts; the next tier's, after a tier change); the new
 * period starts at the old end. A charge that fails makes the subscription past due: access until
 * period end + GRACE_DAYS, retried each run. A provider's own subscriptions (Stripe's) renew
 * through its webhooks, not here; with a 'checkout' provider configured nothing is charged here.
 */
async function renewDue({ deps, now, limit, out, isolated }: BillingRun): Promise<void> {
  if (deps.provider.flow !== 'direct') return;
  const due = await deps.db
    .selectFrom('subscriptions')
    .leftJoin('subscription_billing_retries as r', 'r.subscription_id', 'subscriptions.id')
    .select(['subscriptions.id', setAside])
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.cancel_at_period_end', '=', false)
    .where('subscriptions.provider', 'not in', SELF_RENEWING_PROVIDERS)
    .where('subscriptions.current_period_end', '<=', new Date(now.getTime() + RENEW_AHEAD_MS))
    .where((eb) => eb.or([eb('subscriptions.grace_until', 'is', null), eb('subscriptions.grace_until', '>', now)]))
    .where(retryable(now))
    .orderBy(neverFailedFirst)
    .orderBy('subscriptions.current_period_end')
    .limit(limit)
    .execute();
  for (const row of due) {
    const outcome = await isolated('renew', row, () => renewOne(deps.db, deps.provider, row.id, now, deps.earnings));
    if (outcome === 'past-due') out.pastDue += 1;
    else if (outcome && 'failed' in outcome) {
      out.pastDue += 1;
      out.effects.jobs.push(...outcome.failed);
    } else if (outcome) {
      out.renewed += 1;
      out.effects.jobs.push(...outcome.renewed);
    }
  }
}

/**
 * 3. Expire what is over (the cancelled at their end, the past due after their grace): active
 * subscriptions whose period and grace are over end ('expired'); a lapsed Premium turns the
 * profile's is_premium off; each lapse is announced to the fan.
 */
async function expireLapsed({ deps, now, limit, out, isolated }: BillingRun): Promise<void> {
  const { db } = deps;
  const lapsed = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers as t', 't.id', 'subscriptions.tier_id')
    .leftJoin('subscription_billing_retries as r', 'r.subscription_id', 'subscriptions.id')
    .select(['subscriptions.id', 'subscriptions.subscriber_id', 't.creator_id', setAside])
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.current_period_end', '<=', now)
    .where((eb) => eb.or([eb('subscriptions.grace_until', 'is', null), eb('subscriptions.grace_until', '<=', now)]))
    .where((eb) =>
      eb.or([
        // cancelled: ends at its period end
        eb('subscriptions.cancel_at_period_end', '=', true),
        // past due: ends when its grace is over
        eb('subscriptions.grace_until', 'is not', null),
        // a provider's own renewals come by webhook (Stripe's): one that heard nothing for GRACE_DAYS past its end is over
        eb.and([eb('subscriptions.provider', 'in', SELF_RENEWING_PROVIDERS), eb('subscriptions.current_period_end', '<=', new Date(now.getTime() - GRACE_DAYS * DAY_MS))]),
        // a subscription this job renews is renewed above (or made past due), never ended here
      ]),
    )
    .where(retryable(now))
    .orderBy(neverFailedFirst)
    .orderBy('subscriptions.current_period_end')
    .limit(limit)
    .execute();
  for (const row of lapsed) {
    const ended = await isolated('expire', row, () =>
      db.transaction().execute(async (trx) => {
        await updateSubscription(trx, row.id, { status: 'expired', nextTierId: null, nextPriceCents: null }, now);
        if (row.creator_id === null) await setPremiumFlag(trx, row.subscriber_id, now);
        return true;
      }),
    );
    if (!ended) continue;
    out.expired += 1;
    out.effects.entitlements.push({ userId: row.subscriber_id, creatorId: row.creator_id, active: false });
  }
}

/**
 * 4. Remind: annual subscriptions and bundles renewing within REMINDER_DAYS, and free trials
 * converting to paid within TRIAL_REMINDER_DAYS, get one reminder per period.
 */
async function remindBeforeRenewal({ deps, now, limit, out, isolated }: BillingRun): Promise<void> {
  const { db } = deps;
  const remind = await db
    .selectFrom('subscriptions')
    .innerJoin('subscription_tiers as t', 't.id', 'subscriptions.tier_id')
    .leftJoin('subscription_billing_retries as r', 'r.subscription_id', 'subscriptions.id')
    .select(['subscriptions.id', 'subscriptions.current_period_end', setAside])
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.cancel_at_period_end', '=', false)
    .where('t.creator_id', 'is not', null)
    .where('subscriptions.current_period_end', '>', now)
    .where((eb) =>
      eb.or([
        eb.and([eb('t.payment_interval', '=', 'annually'), eb('subscriptions.current_period_end', '<=', new Date(now.getTime() + REMINDER_DAYS * DAY_MS))]),
        // a bundle renews for its whole length at once: its fan is reminded like an annual one
        eb.and([eb('subscriptions.bundle_periods', 'is not', null), eb('subscriptions.current_period_end', '<=', new Date(now.getTime() + REMINDER_DAYS * DAY_MS))]),
        // a free trial about to convert to paid (domain/billing/trial.ts)
        eb.and([
          eb('subscriptions.trial_ends_at', '=', eb.ref('subscriptions.current_period_end')),
          eb('subscriptions.current_period_end', '<=', new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY_MS)),
        ]),
      ]),
    )
    .where(sql<boolean>`subscriptions.reminded_period_end is distinct from subscriptions.current_period_end`)
    .where(retryable(now))
    .orderBy(neverFailedFirst)
    .limit(limit)
    .execute();
  for (const row of remind) {
    const mail = await isolated('remind', row, () =>
      db.transaction().execute(async (trx) => {
        await updateSubscription(trx, row.id, { remindedPeriodEnd: row.current_period_end }, now);
        return addRenewalReminder(trx, row.id, row.current_period_end);
      }),
    );
    if (!mail) continue;
    out.reminders.push({ subscriptionId: row.id, periodEnd: row.current_period_end });
    out.effects.jobs.push(mail);
  }
}

/**
 * A subscription to a creator nobody but the creator may see stops renewing: a provider-managed
 * one (Stripe) is told first (cancel_at_period_end), then it is marked here, with the fan's mail
 * in the outbox, in one transaction with the row locked. The mail's entry when this call stopped
 * it; null when there was nothing to do. A provider error throws: the row stays as it was and a
 * later run tries again.
 */
async function stopForUnavailableCreator(db: DB, managed: PaymentProvider | null, id: string, now: Date): Promise<{ mail: QueuedEntry; notice: QueuedEntry[] } | null> {
  return db.transaction().execute(async (trx) => {
    const sub = await trx
      .selectFrom('subscriptions as s')
      .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
      .leftJoin('privacy_settings as ps', 'ps.user_id', 't.creator_id')
      .leftJoin('users as cu', 'cu.id', 't.creator_id')
      .select(['s.id', 's.status', 's.cancel_at_period_end', 's.provider', 's.provider_subscription_id', 'ps.profile_visibility as creator_visibility', 'cu.suspended_at as creator_suspended_at'])
      .where('s.id', '=', id)
      .forUpdate('s')
      .skipLocked()
      .executeTakeFirst();
    if (!sub || sub.status !== 'active' || sub.cancel_at_period_end) return null;
    if (!creatorUnavailable(sub)) return null;
    if (sub.provider_subscription_id && capabilitiesOf(sub.provider)?.renewsItself !== false) {
      if (managed?.name !== sub.provider) throw new Error(`no ${sub.provider} provider configured to stop subscription ${sub.id}`);
      await managed.setCancelAtPeriodEnd(sub.provider_subscription_id, true);
    }
    await updateSubscription(trx, sub.id, { cancelAtPeriodEnd: true, nextTierId: null, nextPriceCents: null, creatorUnavailableAt: now }, now);
    const mail = await addToOutbox(trx, {
      queue: 'mail', name: 'creator-unavailable', data: { subscriptionId: sub.id }, jobId: creatorUnavailableMailJobId(sub.id), options: MAIL_JOB_OPTIONS,
    });
    return { mail, notice: await notifyFanOfSubscription(trx, sub.id, 'subscription-ending', now) };
  });
}

/**
 * One renewal in its own transaction: the receipt job written with its payment (`renewed`), the
 * mail of a charge that first failed this period, written with its `failed` row (`failed`: the fan
 * is told what to do), 'past-due' (failed again), or null (nothing due any more).
 */
async function renewOne(db: DB, provider: PaymentProvider, id: string, now: Date, earnings: EarningsPolicy): Promise<{ renewed: QueuedEntry[] } | { failed: QueuedEntry[] } | 'past-due' | null> {
  return db.transaction().execute(async (trx) => {
    const sub = await trx
      .selectFrom('subscriptions')
      .select(['id', 'subscriber_id', 'tier_id', 'next_tier_id', 'price_cents', 'next_price_cents', 'current_period_end', 'past_due_since', 'status', 'cancel_at_period_end', 'bundle_periods'])
      .where('id', '=', id)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!sub || sub.status !== 'active' || sub.cancel_at_period_end) return null;
    if (sub.current_period_end.getTime() > now.getTime() + RENEW_AHEAD_MS) return null;
    const tier = await findTierForBilling(trx, sub.next_tier_id ?? sub.tier_id);
    if (!tier) throw new Error(`subscription ${sub.id} has no tier to renew at`);
    // never a charge for a creator the fan cannot see (step 1 stops these; this is its backstop)
    if (creatorUnavailable(tier)) return null;
    // a bundle renews as the same bundle (docs/payments.md, Bundles); a tier change ends it: the new tier renews one period at a time
    const bundlePeriods = sub.next_tier_id ? null : sub.bundle_periods;
    const bundle = bundlePeriods ? { periods: bundlePeriods, percent: await findBundlePercent(trx, tier.id, bundlePeriods) } : null;
    const amountCents = renewalPrice(readCents(sub.next_tier_id ? sub.next_price_cents : sub.price_cents), tier, bundle);
    const description = paymentDescription(tier, bundlePeriods);
    // one key per subscription and period: a second run for the same period is refused by the
    // unique index of system keys, which no client's key can reach
    const key = `renewal-${sub.id}-${sub.current_period_end.getTime()}`;
    const charge = await provider.charge({ userId: sub.subscriber_id, amountCents, description, idempotencyKey: key });
    if (!charge.ok) {
      if (sub.past_due_since) return 'past-due';
      await updateSubscription(trx, sub.id, { pastDueSince: now, graceUntil: new Date(sub.current_period_end.getTime() + GRACE_DAYS * DAY_MS) }, now);
      const failedPaymentId = await insertPayment(trx, {
        userId: sub.subscriber_id, tierId: tier.id, creatorId: tier.creator_id, subscriptionId: sub.id, description,
        idempotencyKey: null, systemKey: `failed-${key}`, amountCents, provider: provider.name, providerRef: null, status: 'failed', createdAt: now, earnings,
      });
      return { failed: [await addRenewalFailedMail(trx, failedPaymentId), ...(await notifyFanOfSubscription(trx, sub.id, 'renewal-failed', now))] };
    }
    const start = sub.current_period_end;
    await updateSubscription(
      trx,
      sub.id,
      {
        tierId: tier.id, nextTierId: null, nextPriceCents: null, priceCents: amountCents, periodStart: start, periodEnd: periodEndFor(start, tier, bundlePeriods),
        pastDueSince: null, graceUntil: null, bundlePeriods,
      },
      now,
    );
    const paymentId = await insertPayment(trx, {
      userId: sub.subscriber_id, tierId: tier.id, creatorId: tier.creator_id, subscriptionId: sub.id, description,
      idempotencyKey: null, systemKey: key, amountCents, provider: provider.name, providerRef: charge.ref, status: 'succeeded', createdAt: now, earnings,
    });
    return { renewed: await addChargeEffects(trx, paymentId) };
  });
}
