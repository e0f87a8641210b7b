import { accountLines, creatorAccountIds, sumCredit } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { creatorBalances } from '../../domain/earnings/balances';
import { sendPayoutJobId } from '../../domain/earnings/payouts';
import { sendPayoutJob } from '../../worker/jobs/payouts';
import { makeUser, type MadeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 26 item 3: a creator who deletes the account is paid the whole available balance first
 * (no minimum), to the payout account kept on the payout row, by the `send-payout` job from the
 * deletion's outbox; without a payout account with payouts enabled nothing is paid and the
 * balance stays with the platform (the dialog's deletionForfeit). The maintenance queue has no
 * worker here: the test runs the payout job itself. The ledger rows outlive the account (their
 * creator_id is set null), so the balance is summed over the creator's rows taken beforehand.
 */
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ workerQueues: ['mail'] });
});
afterAll(async () => {
  await app?.close();
});

/** A creator with a R{gross} charge 8 days ago (past the hold: available) and, if asked, an enabled built-in test payout account. */
async function creatorWithBalance(withAccount: boolean, grossCents = 500_00) {
  const db = app.deps.db;
  const creator = await makeUser(db, { isCreator: true });
  const fan = await makeUser(db);
  if (withAccount) await db.insertInto('payout_accounts').values({ user_id: creator.id, provider: 'builtin', provider_account_id: `test_acct_${creator.id}`, status: 'enabled' }).execute();
  const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: grossCents, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
  await db.transaction().execute((trx) =>
    insertPayment(trx, {
      userId: fan.id, tierId: tier.id, creatorId: creator.id, subscriptionId: null, description: 'Gold', idempotencyKey: null, systemKey: `c-${randomUUID()}`,
      amountCents: grossCents, provider: 'builtin', providerRef: `builtin_${randomUUID()}`, status: 'succeeded', createdAt: new Date(Date.now() - 8 * DAY_MS), earnings: DEFAULT_EARNINGS_POLICY,
    }),
  );
  const available = (await creatorBalances(db, creator.id, new Date())).available;
  expect(available).toBeGreaterThan(0);
  return { creator, available, accounts: await creatorAccountIds(db, creator.id) };
}

/** What the ledger still owes the creator after the account is gone (their two accounts outlive it). */
const ledgerSum = async (accounts: string[]) => sumCredit(await accountLines(app.deps.db, accounts));

const deletionPayout = (creator: MadeUser) => app.deps.db.selectFrom('payouts').selectAll().where('key', 'like', `deletion-${creator.id}-%`).executeTakeFirst();

describe('a creator who deletes the account', () => {
  it('with an enabled payout account is paid the whole available balance by one payout, carried out by its job; the balance ends at zero', async () => {
    const { creator, available, accounts } = await creatorWithBalance(true);
    await (await clientAs(app, creator.id)).trpc.account.deleteAccount.mutate({ password: creator.password });
    expect(await app.deps.db.selectFrom('users').select('id').where('id', '=', creator.id).executeTakeFirst()).toBeUndefined();

    const payout = await deletionPayout(creator);
    expect(payout).toMatchObject({ amount_cents: String(available), status: 'pending', trigger: 'deletion', provider: 'builtin', provider_account_id: `test_acct_${creator.id}`, creator_id: null });
    expect(await app.deps.db.selectFrom('payouts').select('id').where('provider_account_id', '=', `test_acct_${creator.id}`).execute()).toHaveLength(1);
    expect(await ledgerSum(accounts)).toBe(0);
    // its job was written with the deletion (and queued after the commit): the job carries it out
    expect(await app.deps.db.selectFrom('outbox').select('job_id').where('job_id', '=', sendPayoutJobId(payout!.id)).executeTakeFirst()).toBeTruthy();
    expect(await sendPayoutJob(app.deps, { payoutId: payout!.id })).toEqual({ paidCents: available });
    expect(await sendPayoutJob(app.deps, { payoutId: payout!.id })).toEqual({ skipped: 'settled' });
    expect(await deletionPayout(creator)).toMatchObject({ status: 'paid', transfer_ref: expect.any(String) });
    expect(await ledgerSum(accounts)).toBe(0);
  });

  it('without a payout account is paid nothing: the balance stays with the platform', async () => {
    const { creator, available, accounts } = await creatorWithBalance(false);
    await (await clientAs(app, creator.id)).trpc.account.deleteAccount.mutate({ password: creator.password });
    expect(await app.deps.db.selectFrom('users').select('id').where('id', '=', creator.id).executeTakeFirst()).toBeUndefined();
    expect(await deletionPayout(creator)).toBeUndefined();
    expect(await ledgerSum(accounts)).toBe(available);
  });
});
