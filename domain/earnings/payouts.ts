import { sql } from 'kysely';
import { MAIL_JOB_OPTIONS } from '../../common/jobs';
import { formatCents } from '../../common/money';
import { EARNINGS_TEXTS } from '../../common/earnings-texts';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { PayoutTrigger } from '../../core/db/schema';
import { addToOutbox, type QueuedEntry } from '../../core/outbox/outbox';
import type { PaymentProvider } from '../../core/payments/provider';
import type { Clock } from '../../core/clock';
import { BillingError } from '../billing/errors';
import { notifyPayout } from '../notifications/money';
import { PROVIDER_CALL_JOB_OPTIONS } from '../billing/refunds';
import { creatorAvailable, creatorPending, losses, payoutsInTransit, providerCash } from '../ledger/accounts';
import { postJournal } from '../ledger/post';
import { availableCents, creatorBalanceCents, maturedPendingCents } from './balances';
import { LOSS_REASONS } from './split';
import type { EarningsPolicy } from './policy';

export const sendPayoutJobId = (payoutId: string) => `send-payout-${payoutId}`;
/** The provider's idempotency key of a payout's transfer: one transfer per payout, however often the job runs. */
export const transferKey = (payoutId: string) => `payout-${payoutId}`;

/** Serialises payouts of one creator: two Withdraws at once (or a Withdraw and the weekly run) make one. */
export async function lockCreator(trx: DB, creatorId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`payout:${creatorId}`}, 0))`.execute(trx);
}

export interface PayoutRequest {
  creatorId: string;
  trigger: PayoutTrigger;
  /** one payout per key: a Withdraw's `request-<client key>`, the week's `scheduled-<creator>-<week>`, a deletion's `deletionPayoutKey` */
  key: string;
  /** the least it may be (cents): the setting for Withdraw and the weekly run, a cent when the account is deleted */
  minimumCents: number;
}

/**
 * The key of a deletion's payout: the creator and the deletion's own time, so each deletion (Delete
 * All Data, later Delete Account) pays what is available then, and a repeat inside the same
 * deletion's transaction finds its payout.
 */
export const deletionPayoutKey = (creatorId: string, at: Date) => `deletion-${creatorId}-${at.getTime()}`;

/**
 * A creator's account is going (Delete Account), in its transaction, after its refunds were
 * decided and its payout made: a balance below zero (refunds and disputes beyond the earnings
 * left) can no longer be recovered from later earnings, so the platform books it as its loss, with
 * the reason ('loss_written_off': the creator's balance back to zero). Returns the loss (cents, ≥ 0).
 */
export async function writeOffNegativeBalance(trx: DB, creatorId: string, now: Date): Promise<number> {
  await lockCreator(trx, creatorId);
  const balance = await creatorBalanceCents(trx, creatorId);
  if (balance >= 0) return 0;
  await postJournal(trx, {
    kind: 'loss_written_off', key: `write-off-${creatorId}-${now.getTime()}`, at: now, reason: LOSS_REASONS.negativeAtDeletion,
    lines: [{ account: losses, cents: -balance }, { account: creatorAvailable(creatorId), cents: balance }],
  });
  return -balance;
}

/**
 * Earnings whose hold has ended move from the creator's pending account to available
 * ('hold_released'), under the creator's lock. Reads count them as available from the moment the
 * hold ends (balances.ts); this puts them where a payout takes them from.
 */
export async function releaseMaturedHolds(trx: DB, creatorId: string, now: Date): Promise<number> {
  const matured = await maturedPendingCents(trx, creatorId, now);
  if (matured === 0) return 0;
  await postJournal(trx, {
    kind: 'hold_released', key: `hold-released-${creatorId}-${now.getTime()}`, at: now,
    lines: [{ account: creatorPending(creatorId), cents: matured, availableAt: now }, { account: creatorAvailable(creatorId), cents: -matured }],
  });
  return matured;
}

export type PayoutRow = { id: string; amountCents: number; created: boolean };

/**
 * A payout of the creator's whole available balance (docs/payments.md, "Payouts"), in the
 * caller's transaction: under the creator's lock, the same key answers the payout it made; a
 * creator needs a payout account with payouts enabled, no payout already on its way, and at least
 * the minimum available (a balance below zero after a chargeback pays nothing). One payout row,
 * the ledger's debit of the balance (so nothing is paid twice) and the outbox row of the
 * `send-payout` job, whose transfer key comes from the payout's id.
 */
export async function createPayout(trx: DB, req: PayoutRequest, now: Date): Promise<{ payout: PayoutRow; job: QueuedEntry | null }> {
  await lockCreator(trx, req.creatorId);
  const same = await trx.selectFrom('payouts').select(['id', 'creator_id', 'amount_cents']).where('key', '=', req.key).executeTakeFirst();
  if (same) {
    if (same.creator_id !== req.creatorId) throw new BillingError('CONFLICT', EARNINGS_TEXTS.keyTaken);
    return { payout: { id: same.id, amountCents: readCents(same.amount_cents), created: false }, job: null };
  }
  const account = await trx
    .selectFrom('payout_accounts')
    .select(['provider', 'provider_account_id', 'status'])
    .where('user_id', '=', req.creatorId)
    .executeTakeFirst();
  if (!account || account.status !== 'enabled') throw new BillingError('FORBIDDEN', EARNINGS_TEXTS.noPayoutAccount);
  const inFlight = await trx.selectFrom('payouts').select('id').where('creator_id', '=', req.creatorId).where('status', '=', 'pending').executeTakeFirst();
  if (inFlight) throw new BillingError('CONFLICT', EARNINGS_TEXTS.payoutInFlight);
  await releaseMaturedHolds(trx, req.creatorId, now);
  const amount = await availableCents(trx, req.creatorId, now);
  if (amount < Math.max(1, req.minimumCents)) throw new BillingError('CONFLICT', EARNINGS_TEXTS.belowMinimum(formatCents(Math.max(1, req.minimumCents))));
  const payout = await trx
    .insertInto('payouts')
    .values({
      creator_id: req.creatorId, amount_cents: amount, trigger: req.trigger, key: req.key,
      provider: account.provider, provider_account_id: account.provider_account_id, created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await postJournal(trx, {
    kind: 'payout_requested', key: `payout-requested-${payout.id}`, at: now, payoutId: payout.id,
    lines: [{ account: creatorAvailable(req.creatorId), cents: amount }, { account: payoutsInTransit, cents: -amount }],
  });
  const job = await addToOutbox(trx, {
    queue: 'maintenance', name: 'send-payout', data: { payoutId: payout.id }, jobId: sendPayoutJobId(payout.id), options: PROVIDER_CALL_JOB_OPTIONS,
  });
  return { payout: { id: payout.id, amountCents: amount, created: true }, job };
}

/** Withdraw (the creator's request) or any payout on its own: one transaction around createPayout. */
export async function requestPayout(deps: { db: DB; clock: Clock }, req: PayoutRequest): Promise<{ payout: PayoutRow; jobs: QueuedEntry[] }> {
  return deps.db.transaction().execute(async (trx) => {
    const { payout, job } = await createPayout(trx, req, deps.clock.now());
    return { payout, jobs: job ? [job] : [] };
  });
}

/** A payout the provider confirmed: paid, with its transfer, and out of transit and of the provider's money ('payout_paid'). */
export async function markPayoutPaid(trx: DB, p: { payoutId: string; amountCents: number; provider: string; transferRef: string; now: Date }): Promise<void> {
  await trx.updateTable('payouts').set({ status: 'paid', transfer_ref: p.transferRef, settled_at: p.now }).where('id', '=', p.payoutId).execute();
  await postJournal(trx, {
    kind: 'payout_paid', key: `payout-paid-${p.payoutId}`, at: p.now, payoutId: p.payoutId,
    lines: [{ account: payoutsInTransit, cents: p.amountCents }, { account: providerCash(p.provider), cents: -p.amountCents }],
  });
}

export type PayoutOutcome = { paidCents: number; jobs: QueuedEntry[] } | { failed: string; jobs: QueuedEntry[] } | { skipped: 'gone' | 'settled' };

/**
 * The `send-payout` job: the transfer to the account the payout was made for (kept on the row,
 * so a creator who deleted their account is still paid), with the payout's own idempotency key.
 * Settled in one transaction under the row's lock: paid (with the transfer's reference), or,
 * when the provider refused it, failed with the provider's reason, the amount back in the
 * creator's available balance (a ledger row of its own) and the creator told by mail. A thrown
 * error (network, provider down) fails the attempt: BullMQ retries and the outbox relay hands
 * it back; the same key makes every retry the same transfer.
 */
export async function carryOutPayout(
  deps: { db: DB; providerFor: (name: string) => PaymentProvider; clock: Clock },
  payoutId: string,
): Promise<PayoutOutcome> {
  const payout = await deps.db
    .selectFrom('payouts')
    .select(['id', 'status', 'amount_cents', 'provider', 'provider_account_id'])
    .where('id', '=', payoutId)
    .executeTakeFirst();
  if (!payout) return { skipped: 'gone' };
  if (payout.status !== 'pending') return { skipped: 'settled' };
  const amountCents = readCents(payout.amount_cents);
  const result = await deps.providerFor(payout.provider).transfer({
    accountId: payout.provider_account_id, amountCents, idempotencyKey: transferKey(payout.id), payoutId: payout.id,
  });
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx): Promise<PayoutOutcome> => {
    const row = await trx.selectFrom('payouts').select(['status', 'creator_id']).where('id', '=', payoutId).forUpdate().executeTakeFirstOrThrow();
    if (row.status !== 'pending') return { skipped: 'settled' };
    if (result.ok) {
      await markPayoutPaid(trx, { payoutId, amountCents, provider: payout.provider, transferRef: result.ref, now });
      const jobs = row.creator_id ? await notifyPayout(trx, { payoutId, creatorId: row.creator_id, outcome: 'sent', at: now }) : [];
      return { paidCents: amountCents, jobs };
    }
    const reason = result.reason.slice(0, 500);
    await trx.updateTable('payouts').set({ status: 'failed', failure_reason: reason, settled_at: now }).where('id', '=', payoutId).execute();
    // back in the creator's available balance; a creator who has gone meanwhile cannot be paid it
    await postJournal(trx, {
      kind: 'payout_failed', key: `payout-failed-${payoutId}`, at: now, payoutId,
      reason: row.creator_id ? undefined : LOSS_REASONS.payoutReturnedToNoOne,
      lines: [{ account: payoutsInTransit, cents: amountCents }, { account: row.creator_id ? creatorAvailable(row.creator_id) : losses, cents: -amountCents }],
    });
    const jobs = row.creator_id
      ? [
          await addToOutbox(trx, { queue: 'mail', name: 'payout-failed', data: { payoutId }, jobId: `payout-failed-${payoutId}`, options: MAIL_JOB_OPTIONS }),
          ...(await notifyPayout(trx, { payoutId, creatorId: row.creator_id, outcome: 'failed', at: now })),
        ]
      : [];
    return { failed: reason, jobs };
  });
}

/** The start (00:00 UTC) of the payout week `at` is in: the last payout weekday on or before it. */
export function payoutWeekStart(at: Date, weekday: number): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const back = (day.getUTCDay() - weekday + 7) % 7;
  return new Date(day.getTime() - back * 86_400_000);
}

/** The next automatic payout's day after `at` (this week's when it has not come yet). */
export function nextPayoutDate(at: Date, weekday: number): Date {
  return new Date(payoutWeekStart(at, weekday).getTime() + 7 * 86_400_000);
}

/**
 * The weekly run (job `weekly-payouts`, hourly; the first run of each payout week pays): every
 * creator with payouts enabled and at least the minimum available gets one payout keyed by the
 * week, so later runs that week (or a second worker) add nothing. Each creator in a transaction
 * of its own: one that fails to pay leaves the others paid. A refusal by the rules (a Withdraw
 * meanwhile, below the minimum now) is nothing to pay this week; anything else a creator's payout
 * throws (a row the database refuses, a bug) is answered in `failures` for the worker to log and
 * count, and the run goes on with the next creator; the next hourly run of the week tries again.
 */
export async function runScheduledPayouts(
  deps: { db: DB; clock: Clock; earnings: EarningsPolicy },
): Promise<{ created: number; jobs: QueuedEntry[]; failures: { creatorId: string; error: unknown }[] }> {
  const now = deps.clock.now();
  const week = payoutWeekStart(now, deps.earnings.payoutWeekday).toISOString().slice(0, 10);
  const due = await deps.db
    .selectFrom('payout_accounts as a')
    .innerJoin('ledger_accounts as la', 'la.owner_id', 'a.user_id')
    .innerJoin('journal_lines as l', 'l.account_id', 'la.id')
    .select('a.user_id')
    .where('a.status', '=', 'enabled')
    .where((eb) => eb.or([eb('la.kind', '=', 'creator_available'), eb('l.available_at', '<=', now)]))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('payouts as p').select('p.id').whereRef('p.creator_id', '=', 'a.user_id').where('p.status', '=', 'pending'))))
    .groupBy('a.user_id')
    .having(sql`-sum(l.amount_cents)`, '>=', deps.earnings.payoutMinimumCents)
    .execute();
  const jobs: QueuedEntry[] = [];
  const failures: { creatorId: string; error: unknown }[] = [];
  let created = 0;
  for (const { user_id } of due) {
    try {
      const out = await requestPayout(deps, { creatorId: user_id, trigger: 'scheduled', key: `scheduled-${user_id}-${week}`, minimumCents: deps.earnings.payoutMinimumCents });
      if (out.payout.created) created += 1;
      jobs.push(...out.jobs);
    } catch (error) {
      // changed since the select (a Withdraw meanwhile): nothing to pay this week
      if (!(error instanceof BillingError)) failures.push({ creatorId: user_id, error });
    }
  }
  return { created, jobs, failures };
}
