import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARNINGS_TEXTS } from '../../common/earnings-texts';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { creatorBalances } from '../../domain/earnings/balances';
import { sendPayoutJob } from '../../worker/jobs/payouts';
import { reconcileDay } from '../../domain/earnings/reconciliation';
import { providerNamed } from '../../core/payments';
import { reconciliationRegistry, renderMetrics } from '../../core/metrics';
import { makeUser, type MadeUser } from '../helpers/factories';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { sendSigned, STRIPE_TEST_ENV, stripeEvent } from '../helpers/stripe-events';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Payout accounts and payouts with Stripe (issue 26 §2-3), offline: Connect Express onboarding
 * through Account Links and signed `account.updated` events against a fake Stripe API; Withdraw
 * under concurrent requests, the `send-payout` job run twice and retried after Stripe errors (one
 * Transfer, by the payout's key), a transfer Stripe refuses (the amount comes back, the creator is
 * told why), and one creator's ledger closed to another. The maintenance queue has no worker
 * here: the tests run the payout job themselves, as often as they like.
 */
let app: TestServer;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await startFakeStripe();
  app = await startTestServer({ env: { ...STRIPE_TEST_ENV, STRIPE_API_URL: stripe.url }, workerQueues: ['mail'] });
});
afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

/** A creator with a Connect account that finished onboarding, and R{earning} available (a R{gross} charge 8 days ago). */
async function paidCreator(grossCents = 500_00) {
  const db = app.deps.db;
  const creator = await makeUser(db, { isCreator: true });
  const fan = await makeUser(db);
  const as = await clientAs(app, creator.id);
  await as.trpc.earnings.setUpPayouts.mutate();
  const account = (await db.selectFrom('payout_accounts').select('provider_account_id').where('user_id', '=', creator.id).executeTakeFirstOrThrow()).provider_account_id;
  stripe.accounts.set(account, { payouts_enabled: true, details_submitted: true });
  const updated = stripeEvent(`evt_acct_${randomUUID()}`, 'account.updated', { id: account, object: 'account', payouts_enabled: true, details_submitted: true, requirements: { currently_due: [] } });
  expect((await sendSigned(app.url, updated)).outcome).toBe('applied');
  const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: grossCents, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
  await db.transaction().execute((trx) =>
    insertPayment(trx, {
      userId: fan.id, tierId: tier.id, creatorId: creator.id, subscriptionId: null, description: 'Gold', idempotencyKey: null, systemKey: `c-${randomUUID()}`,
      amountCents: grossCents, provider: 'stripe', providerRef: `in_${randomUUID()}`, status: 'succeeded', createdAt: new Date(Date.now() - 8 * DAY_MS), earnings: DEFAULT_EARNINGS_POLICY,
    }),
  );
  return { creator, as, account };
}

const payoutsOf = (creator: MadeUser) => app.deps.db.selectFrom('payouts').selectAll().where('creator_id', '=', creator.id).execute();

describe('Connect onboarding', () => {
  it('creates one Express account, sends the creator to Account Links, and account.updated enables payouts and verifies Identity', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true, identityVerified: false });
    const as = await clientAs(app, creator.id);
    const first = await as.trpc.earnings.setUpPayouts.mutate();
    expect(first.status).toBe('details_needed');
    expect(first.onboardingUrl).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/acct_fake_\d+$/);
    const created = stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts');
    expect(created.at(-1)).toMatchObject({ idempotencyKey: `connect-account-${creator.id}`, params: expect.objectContaining({ type: 'express', 'capabilities[transfers][requested]': 'true' }) });
    // pressed again (the link expired): the same account, a fresh link
    const again = await as.trpc.earnings.setUpPayouts.mutate();
    expect(again.onboardingUrl).toBe(first.onboardingUrl);
    expect(stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts')).toHaveLength(created.length);
    expect(await as.trpc.earnings.payoutAccount.query()).toEqual({ status: 'details_needed', isTest: false, provider: 'stripe' });
    expect((await as.trpc.settings.verification.query()).isIdentityVerified).toBe(false);

    const account = first.onboardingUrl!.split('/').at(-1)!;
    const pending = stripeEvent('evt_acct_pending', 'account.updated', { id: account, object: 'account', payouts_enabled: false, details_submitted: true, requirements: { currently_due: [] } });
    expect((await sendSigned(app.url, pending)).outcome).toBe('applied');
    expect((await as.trpc.earnings.payoutAccount.query()).status).toBe('pending');
    const enabled = stripeEvent('evt_acct_enabled', 'account.updated', {
      id: account, object: 'account', payouts_enabled: true, details_submitted: true, requirements: { currently_due: [] }, individual: { verification: { status: 'verified' } },
    });
    expect((await sendSigned(app.url, enabled)).outcome).toBe('applied');
    expect((await sendSigned(app.url, enabled)).outcome).toBe('duplicate');
    expect((await as.trpc.earnings.payoutAccount.query()).status).toBe('enabled');
    expect((await as.trpc.settings.verification.query()).isIdentityVerified).toBe(true);
    // an account that is not ours changes nothing
    expect((await sendSigned(app.url, stripeEvent('evt_acct_other', 'account.updated', { id: 'acct_someone_else', payouts_enabled: true }))).outcome).toBe('ignored');
  });
});

describe('payouts', () => {
  it('concurrent Withdraws make one payout; the job run twice and retried after Stripe errors makes one Transfer; the balance is zero', async () => {
    const { creator, as, account } = await paidCreator();
    const key = randomUUID();
    const results = await Promise.allSettled([
      ...Array.from({ length: 4 }, () => as.trpc.earnings.withdraw.mutate({ idempotencyKey: key })),
      ...Array.from({ length: 3 }, () => as.trpc.earnings.withdraw.mutate({ idempotencyKey: randomUUID() })),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ payoutId: string; amount: string }>).value);
    const payouts = await payoutsOf(creator);
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ amount_cents: '40000', status: 'pending', trigger: 'request' });
    // the same key answers the same payout; another key is refused while it is on its way
    expect(new Set(ok.map((o) => o.payoutId))).toEqual(new Set([payouts[0]!.id]));
    for (const r of results.filter((x) => x.status === 'rejected')) expect(String((r as PromiseRejectedResult).reason)).toContain(EARNINGS_TEXTS.payoutInFlight);
    expect((await creatorBalances(app.deps.db, creator.id, new Date())).available).toBe(0);
    // the outbox row is there for the job
    expect(await app.deps.db.selectFrom('outbox').select('job_id').where('job_id', '=', `send-payout-${payouts[0]!.id}`).executeTakeFirst()).toBeTruthy();

    stripe.failNext('POST', '/v1/transfers', 2);
    const payoutId = payouts[0]!.id;
    await expect(sendPayoutJob(app.deps, { payoutId })).rejects.toThrow();
    await expect(sendPayoutJob(app.deps, { payoutId })).rejects.toThrow();
    expect((await payoutsOf(creator))[0]!.status).toBe('pending');
    const [a, b] = await Promise.all([sendPayoutJob(app.deps, { payoutId }), sendPayoutJob(app.deps, { payoutId })]);
    expect([a, b]).toContainEqual({ paidCents: 400_00 });
    expect(await sendPayoutJob(app.deps, { payoutId })).toEqual({ skipped: 'settled' });
    const sent = stripe.transfers.filter((t) => t.destination === account);
    expect(sent).toEqual([{ id: expect.any(String), amount: 40_000, destination: account, idempotencyKey: `payout-${payoutId}` }]);
    const transferRequests = stripe.requests.filter((r) => r.path === '/v1/transfers' && r.params.destination === account);
    expect(new Set(transferRequests.map((r) => r.idempotencyKey))).toEqual(new Set([`payout-${payoutId}`]));
    expect(transferRequests[0]!.params).toMatchObject({ currency: 'zar', amount: '40000', 'metadata[payout_id]': payoutId });

    const summary = await as.trpc.earnings.summary.query();
    expect(summary).toMatchObject({ available: '0.00', paidOut: '400.00', onItsWay: '0.00', canWithdraw: false });
    expect((await as.trpc.earnings.payouts.query({})).items).toMatchObject([{ id: payoutId, status: 'paid', amount: '400.00' }]);
    // below the minimum now: refused with the minimum named
    await expectTrpcError(as.trpc.earnings.withdraw.mutate({ idempotencyKey: randomUUID() }), 'CONFLICT', EARNINGS_TEXTS.belowMinimum('R200.00'));
  });

  it('a transfer Stripe refuses fails the payout: the amount is back in the balance and the creator is told why', async () => {
    const { creator, as, account } = await paidCreator(300_00);
    stripe.refuseTransfersTo(account, 'Your destination account needs to have at least one of the following capabilities enabled: transfers');
    const { payoutId } = await as.trpc.earnings.withdraw.mutate({ idempotencyKey: randomUUID() });
    expect(await sendPayoutJob(app.deps, { payoutId })).toEqual({ failed: expect.stringContaining('capabilities enabled: transfers') });
    expect((await payoutsOf(creator))[0]).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('transfers') });
    const summary = await as.trpc.earnings.summary.query();
    expect(summary).toMatchObject({ available: '240.00', paidOut: '0.00', onItsWay: '0.00', canWithdraw: true });
    expect((await as.trpc.earnings.payouts.query({})).items[0]).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('transfers') });
    const mail = (await app.outbox()).find((m) => m.to === creator.email && m.subject.includes('did not go through'));
    expect(mail?.text).toContain('capabilities enabled: transfers');
    expect(mail?.text).toContain('back in your available balance');
    // the statement shows the payout and its return
    const month = new Date().toISOString().slice(0, 7);
    const statement = await as.trpc.earnings.statement.query({ month });
    expect(statement.lines.map((l) => [l.type, l.net])).toEqual(expect.arrayContaining([['Payout (failed)', '-240.00'], ['Payout returned', '240.00']]));
  });

  it("a creator's ledger is refused to another creator and to fans; an admin may read it", async () => {
    const { creator, as } = await paidCreator();
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    await expectTrpcError(asOther.trpc.earnings.summary.query({ creatorId: creator.id }), 'FORBIDDEN', EARNINGS_TEXTS.otherCreatorRefused);
    expect((await asOther.trpc.earnings.summary.query()).available).toBe('0.00');
    // a Withdraw key another creator used takes nothing of theirs
    const key = randomUUID();
    await as.trpc.earnings.withdraw.mutate({ idempotencyKey: key });
    await expectTrpcError(asOther.trpc.earnings.withdraw.mutate({ idempotencyKey: key }), 'CONFLICT', EARNINGS_TEXTS.keyTaken);
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    await expectTrpcError(fan.trpc.earnings.summary.query({ creatorId: creator.id }), 'FORBIDDEN');
    // not a clock: any month: refused before it is read
    await expectTrpcError(fan.trpc.earnings.statement.query({ month: '2026-11' }), 'FORBIDDEN');
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    expect((await asAdmin.trpc.earnings.summary.query({ creatorId: creator.id })).onItsWay).toBe('400.00');
    expect((await asAdmin.trpc.earnings.admin.query()).open.map((o) => o.username)).toContain(creator.username);
  });

  it('the daily reconciliation: Stripe\'s transfers match the ledger; money Stripe never saw and a payment missing from the ledger are listed for admins and counted in /metrics', async () => {
    const db = app.deps.db;
    const reconcile = (day: Date) => reconcileDay({ db, providerFor: (name) => providerNamed(app.deps.payments, name) }, day);
    const { as } = await paidCreator(500_00);
    const { payoutId } = await as.trpc.earnings.withdraw.mutate({ idempotencyKey: randomUUID() });
    await sendPayoutJob(app.deps, { payoutId });
    // a payment row written without its journal (what a bug would leave): our own records against the ledger
    const fan = await makeUser(db);
    const stray = await db
      .insertInto('payments')
      .values({ user_id: fan.id, description: 'Stray', amount_cents: 12_34, provider: 'builtin', status: 'succeeded', system_key: `stray-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();

    const today = await reconcile(new Date());
    // every transfer made today went through the ledger, and Stripe's balance says the same
    expect(today.filter((m) => m.kind === 'provider_total:transfers')).toEqual([]);
    expect(today).toContainEqual({ provider: 'builtin', kind: 'payment_not_in_ledger', ref: stray.id, ledgerCents: 0, providerCents: 1234 });
    // the charges of eight days ago were never made at (this fake) Stripe: the totals differ
    const then = await reconcile(new Date(Date.now() - 8 * DAY_MS));
    expect(then).toContainEqual(expect.objectContaining({ provider: 'stripe', kind: 'provider_total:charges', providerCents: 0, ledgerCents: expect.any(Number) }));

    const admin = await makeUser(db);
    await db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const listed = (await (await clientAs(app, admin.id)).trpc.earnings.admin.query()).mismatches;
    expect(listed).toContainEqual(expect.objectContaining({ provider: 'builtin', kind: 'payment_not_in_ledger', ref: stray.id, ledger: '0.00', providerAmount: '12.34' }));
    expect(listed).toContainEqual(expect.objectContaining({ provider: 'stripe', kind: 'provider_total:charges' }));
    const metric = (await renderMetrics(reconciliationRegistry(db))).body.split('\n').find((l) => l.startsWith('ledger_reconciliation_mismatches{provider="all"}'));
    expect(Number(metric?.split(' ')[1])).toBeGreaterThanOrEqual(2);

    // a run after the fix (here: the stray row's money booked by hand is not possible, so the row goes) clears the day's mismatch
    await db.deleteFrom('payments').where('id', '=', stray.id).execute();
    expect((await reconcile(new Date())).filter((m) => m.ref === stray.id)).toEqual([]);
  });
});
