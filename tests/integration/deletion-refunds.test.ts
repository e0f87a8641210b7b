import { accountLines, creatorAccountIds, isCreator, linesAround, paymentShares, sumCredit } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import { insertPayment } from '../../domain/billing/billing.queries';
import { endSubscriptionsOfDeletedUser } from '../../domain/billing/account-deletion';
import { DAY_MS } from '../../domain/billing/periods';
import { carryOutRefund, type RefundRequest } from '../../domain/billing/refunds';
import { creatorBalances } from '../../domain/earnings/balances';
import { requestPayout } from '../../domain/earnings/payouts';
import { LOSS_REASONS } from '../../domain/earnings/split';
import { recordSubscription } from '../../domain/subscriptions/write';
import { sendPayoutJob } from '../../worker/jobs/payouts';
import { makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 45 items 1 and 2: a creator who deletes the account is paid only what is left after the
 * refunds that deletion decides (the fans' pro rata refunds take the creator's share off the
 * balance when they are decided, in the deletion's transaction, before the payout), a balance
 * left below zero is the platform's loss on a row that says why, and each deletion pays out under
 * a key of its own. Money is followed in cents: what came in from the fan, what went back to the
 * fan and what went to the creator; the platform keeps the rest. The maintenance queue has no
 * worker here: the test runs the refund and payout jobs itself.
 */
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail'] });
});
afterAll(async () => {
  await app?.close();
});

/** The creator's share of a refund of `refund` cents of a charge whose earning is 80% (fee 20%): in proportion, half up. */
const creatorShareOf = (refund: number, charge: number, earning: number) => Math.floor((2 * refund * earning + charge) / (2 * charge));

/** A creator with a tier, an enabled (built-in test) payout account, and a fan whose period began `daysAgo` days ago, paid then. */
async function creatorWithFan(opts: { priceCents: number; interval: 'monthly' | 'annually'; periodDays: number; daysAgo: number }) {
  const db = app.deps.db;
  const creator = await makeUser(db, { isCreator: true });
  const fan = await makeUser(db);
  await db.insertInto('payout_accounts').values({ user_id: creator.id, provider: 'builtin', provider_account_id: `test_acct_${creator.id}`, status: 'enabled' }).execute();
  const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: opts.priceCents, payment_interval: opts.interval }).returning('id').executeTakeFirstOrThrow();
  const start = new Date(Date.now() - opts.daysAgo * DAY_MS);
  const periodEnd = new Date(start.getTime() + opts.periodDays * DAY_MS);
  const subscriptionId = await recordSubscription(db, {
    subscriberId: fan.id, tierId: tier.id, status: 'active', periodStart: start, periodEnd, provider: 'builtin', providerSubscriptionId: null, createdAt: start,
  });
  const chargeId = await db.transaction().execute((trx) =>
    insertPayment(trx, {
      userId: fan.id, tierId: tier.id, creatorId: creator.id, subscriptionId, description: 'Creator — Gold', idempotencyKey: randomUUID(), amountCents: opts.priceCents,
      provider: 'builtin', providerRef: `builtin_${randomUUID()}`, status: 'succeeded', createdAt: start, earnings: DEFAULT_EARNINGS_POLICY,
    }),
  );
  const earning = (await paymentShares(db, chargeId)).creator!;
  return { creator, fan, chargeId, earning, refundKey: `prorata-refund-${subscriptionId}-${periodEnd.getTime()}` };
}

/** The data of the refund job the deletion queued (its outbox row). */
const refundJobData = async (refundKey: string) =>
  (await app.deps.db.selectFrom('outbox').select('data').where('job_id', '=', `provider-refund-${refundKey}`).executeTakeFirstOrThrow()).data as unknown as RefundRequest;

/** That job, carried out by hand with the built-in provider. */
async function runRefundJob(refundKey: string) {
  return carryOutRefund({ db: app.deps.db, providerFor: () => builtinProvider, clock: app.deps.clock }, await refundJobData(refundKey));
}

const payoutsOf = (accountId: string) =>
  app.deps.db.selectFrom('payouts').select(['id', 'key', 'amount_cents', 'status']).where('provider_account_id', '=', accountId).orderBy('created_at').execute();

describe('a creator who deletes the account after a fan paid', () => {
  it('annual tier, hold passed: the payout is what is available less the creator share of the pro rata refund; the platform keeps its fee less the fee it refunds', async () => {
    // the R100,000 annual tier in small numbers: R1,000.00 a year, 10 days of it used
    const s = await creatorWithFan({ priceCents: 1000_00, interval: 'annually', periodDays: 365, daysAgo: 10 });
    const before = await creatorBalances(app.deps.db, s.creator.id, new Date());
    expect(before).toMatchObject({ available: s.earning, pending: 0 });

    await (await clientAs(app, s.creator.id)).trpc.account.deleteAccount.mutate({ password: s.creator.password });

    // the refund was decided with the deletion (its job's amount), the creator's share taken then
    const request = await refundJobData(s.refundKey);
    const refund = request.amountCents;
    expect(refund).toBeGreaterThan(900_00);
    const share = creatorShareOf(refund, 1000_00, s.earning);
    const payouts = await payoutsOf(`test_acct_${s.creator.id}`);
    expect(payouts).toEqual([expect.objectContaining({ amount_cents: String(s.earning - share), status: 'pending' })]);

    expect(await runRefundJob(s.refundKey)).toMatchObject({ refundedCents: request.amountCents });
    expect(await sendPayoutJob(app.deps, { payoutId: payouts[0]!.id })).toEqual({ paidCents: s.earning - share });

    // money: in from the fan, back to the fan, out to the creator; the platform keeps the rest
    const platformCash = 1000_00 - refund - (s.earning - share);
    const fee = 1000_00 - s.earning;
    const feeRefunded = refund - share;
    expect(platformCash).toBe(fee - feeRefunded);
    expect(platformCash).toBeGreaterThanOrEqual(0);
    // the ledger says the same: the provider's money left is what the platform's revenue kept, the creator's to nothing, no loss
    const rows = await linesAround(app.deps.db, s.chargeId, payouts.map((p) => p.id));
    expect(-sumCredit(rows, (l) => l.account === 'provider_cash')).toBe(platformCash);
    expect(sumCredit(rows, (l) => l.account === 'platform_revenue')).toBe(platformCash);
    expect(sumCredit(rows, isCreator)).toBe(0);
    expect(rows.filter((l) => l.account === 'losses')).toEqual([]);
    // the share came off when the refund was decided, once; the refund made settles what was owed
    expect(rows.filter((l) => isCreator(l) && l.journal.startsWith('refund'))).toEqual([expect.objectContaining({ journal: 'refund_decided', credit: -share })]);
    expect(sumCredit(rows, (l) => l.account === 'refunds_owed')).toBe(0);
  });

  it('monthly tier after a Withdraw: nothing more is paid, and the creator share the balance cannot cover is the platform\'s loss, with its reason', async () => {
    const s = await creatorWithFan({ priceCents: 300_00, interval: 'monthly', periodDays: 30, daysAgo: 10 });
    const withdrawn = await requestPayout({ db: app.deps.db, clock: app.deps.clock }, { creatorId: s.creator.id, trigger: 'request', key: `request-${randomUUID()}`, minimumCents: 20_000 });
    expect(withdrawn.payout.amountCents).toBe(s.earning);
    await sendPayoutJob(app.deps, { payoutId: withdrawn.payout.id });

    const accounts = await creatorAccountIds(app.deps.db, s.creator.id);
    await (await clientAs(app, s.creator.id)).trpc.account.deleteAccount.mutate({ password: s.creator.password });

    const request = await refundJobData(s.refundKey);
    const refund = request.amountCents;
    const share = creatorShareOf(refund, 300_00, s.earning);
    // only the Withdraw: the deletion found nothing available
    expect((await payoutsOf(`test_acct_${s.creator.id}`)).map((p) => p.id)).toEqual([withdrawn.payout.id]);
    expect(await runRefundJob(s.refundKey)).toMatchObject({ refundedCents: request.amountCents });

    const rows = await linesAround(app.deps.db, s.chargeId, [withdrawn.payout.id]);
    // what the creator was paid and the share of the refund leave their account at −share ...
    expect(sumCredit(rows, isCreator)).toBe(-share);
    // ... which the platform books as its loss when the account goes, with why (never money on an account with no one to owe it)
    const creatorLines = await accountLines(app.deps.db, accounts);
    expect(creatorLines.filter((l) => l.journal === 'loss_written_off')).toEqual([
      { account: 'creator_available', journal: 'loss_written_off', credit: share, reason: LOSS_REASONS.negativeAtDeletion },
    ]);
    expect(sumCredit(creatorLines)).toBe(0);
    const platformCash = 300_00 - refund - s.earning;
    const fee = 300_00 - s.earning;
    // what the platform lost beyond the fee it refunded is exactly the loss booked
    expect(platformCash).toBe(fee - (refund - share) - share);
    expect(sumCredit(rows, (l) => l.account === 'platform_revenue') - share).toBe(platformCash);
    expect(-sumCredit(rows, (l) => l.account === 'provider_cash')).toBe(platformCash);
  });

  it('Delete All Data pays out, new earnings come, Delete Account pays those out too (each deletion its own payout key); one deletion run twice pays once', async () => {
    const db = app.deps.db;
    const s = await creatorWithFan({ priceCents: 500_00, interval: 'monthly', periodDays: 30, daysAgo: 31 });
    const asCreator = await clientAs(app, s.creator.id);
    await asCreator.trpc.account.deleteAllData.mutate({ password: s.creator.password });
    const first = await payoutsOf(`test_acct_${s.creator.id}`);
    expect(first).toEqual([expect.objectContaining({ amount_cents: String(s.earning), status: 'pending' })]);
    await sendPayoutJob(app.deps, { payoutId: first[0]!.id });

    // new earnings after Delete All Data (a tip, past the hold)
    const fan = await makeUser(db);
    await db.transaction().execute((trx) =>
      insertPayment(trx, {
        userId: fan.id, tierId: null, creatorId: s.creator.id, subscriptionId: null, description: 'Tip', idempotencyKey: randomUUID(), amountCents: 250_00,
        provider: 'builtin', providerRef: `builtin_${randomUUID()}`, status: 'succeeded', createdAt: new Date(Date.now() - 8 * DAY_MS), tip: { message: null }, earnings: DEFAULT_EARNINGS_POLICY,
      }),
    );
    const available = (await creatorBalances(db, s.creator.id, new Date())).available;
    expect(available).toBe(200_00);

    await asCreator.trpc.account.deleteAccount.mutate({ password: s.creator.password });
    const all = await payoutsOf(`test_acct_${s.creator.id}`);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ amount_cents: String(available), status: 'pending' });
    expect(all[1]!.key).not.toBe(all[0]!.key);

    // the same deletion run again in its transaction (a retry inside it) finds its own payout
    const other = await creatorWithFan({ priceCents: 500_00, interval: 'monthly', periodDays: 30, daysAgo: 31 });
    const at = new Date();
    await db.transaction().execute(async (trx) => {
      await endSubscriptionsOfDeletedUser(trx, other.creator.id, at, { accountGoes: false });
      await endSubscriptionsOfDeletedUser(trx, other.creator.id, at, { accountGoes: false });
    });
    expect(await payoutsOf(`test_acct_${other.creator.id}`)).toEqual([expect.objectContaining({ amount_cents: String(other.earning) })]);
  });
});
