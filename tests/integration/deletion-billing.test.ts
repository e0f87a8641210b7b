import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { recordSubscription } from '../../domain/subscriptions/write';
import { maintenanceHandlers } from '../../worker/jobs/maintenance';
import type { WorkerDeps } from '../../worker/registry';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { jobIn } from '../helpers/jobs';
import { waitFor } from '../helpers/tus';
import { clientAs } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { storedRand } from '../helpers/money';

/**
 * Issue 22, item 2: a subscription that ends here because an account or its data went is ended at
 * the provider too (nobody is charged for what no longer exists), and the fans of a creator who
 * goes get the unused part of their period back, pro rata by days; both through the outbox.
 */
const { app, fakeStripe } = useStripeTestServer();

async function tierOf(creatorId: string, priceCents = 99_00) {
  return (
    await app.deps.db
      .insertInto('subscription_tiers')
      .values({ creator_id: creatorId, name: `Gold ${randomUUID().slice(0, 6)}`, price_cents: priceCents, payment_interval: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** A paid 30-day period, 10 days of it used: what subscribe or a Stripe checkout leaves behind. */
async function paidSubscription(fan: MadeUser, creatorId: string, tierId: string, stripeId: string | null, amountCents = 99_00) {
  const now = Date.now();
  const periodEnd = new Date(now + 20 * DAY_MS);
  const subscriptionId = await recordSubscription(app.deps.db, {
    subscriberId: fan.id, tierId, status: 'active', periodStart: new Date(now - 10 * DAY_MS), periodEnd,
    provider: stripeId ? 'stripe' : 'builtin', providerSubscriptionId: stripeId, createdAt: new Date(now - 10 * DAY_MS),
  });
  const paymentId = await app.deps.db.transaction().execute((trx) =>
    insertPayment(trx, {
    userId: fan.id, tierId, creatorId, subscriptionId, description: 'Creator — Gold', idempotencyKey: randomUUID(), amountCents,
    provider: stripeId ? 'stripe' : 'builtin', providerRef: stripeId ? `pi_${stripeId}` : `builtin_${randomUUID()}`, status: 'succeeded',
    createdAt: new Date(now - 10 * DAY_MS), earnings: DEFAULT_EARNINGS_POLICY,
  }),
  );
  return { subscriptionId, paymentId, periodEnd };
}

const stripeCalls = (method: string, path: string) => fakeStripe.requests.filter((r) => r.method === method && r.path === path);
const ledgerOf = async (paymentId: string) =>
  (
    await app.deps.db
      .selectFrom('payments')
      .select(['kind', 'amount_cents', 'user_id'])
      .where((eb) => eb.or([eb('id', '=', paymentId), eb('reverses_payment_id', '=', paymentId)]))
      .orderBy('created_at')
      .execute()
  ).map((p) => ({ kind: p.kind, amount: storedRand(p.amount_cents), user_id: p.user_id }));

describe('deleting an account stops the money', () => {
  it('a fan who deletes their account has their Stripe subscription cancelled at Stripe, and is not refunded', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const stripeId = `sub_fan_${randomUUID().slice(0, 8)}`;
    const { paymentId } = await paidSubscription(fan, creator.id, await tierOf(creator.id), stripeId);
    expect(fakeStripe.subscriptionStatus(stripeId)).toBe('active');

    await (await clientAs(app, fan.id)).trpc.account.deleteAccount.mutate({ password: fan.password });

    await jobIn(app.deps.queues.maintenance, `cancel-provider-subscription-stripe-${stripeId}`, 'completed');
    expect(stripeCalls('DELETE', `/v1/subscriptions/${stripeId}`)).toHaveLength(1);
    expect(fakeStripe.subscriptionStatus(stripeId)).toBe('canceled');
    // fees are non-refundable: the charge stays in the creator's earnings, detached from the fan
    expect(await ledgerOf(paymentId)).toEqual([{ kind: 'charge', amount: '99.00', user_id: null }]);
    expect(await app.deps.db.selectFrom('outbox').select('done_at').where('job_id', '=', `cancel-provider-subscription-stripe-${stripeId}`).executeTakeFirstOrThrow())
      .toEqual({ done_at: expect.any(Date) });
  });

  it('a creator who deletes all data: every fan loses access, Stripe stops charging, and each is refunded the unused days', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const tierId = await tierOf(creator.id);
    const builtinFan = await makeUser(app.deps.db);
    const stripeFan = await makeUser(app.deps.db);
    const stripeId = `sub_creator_${randomUUID().slice(0, 8)}`;
    const a = await paidSubscription(builtinFan, creator.id, tierId, null);
    const b = await paidSubscription(stripeFan, creator.id, tierId, stripeId);
    const premium = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
    const asBuiltinFan = await clientAs(app, builtinFan.id);
    expect((await asBuiltinFan.fetch(`/media/${premium.id}/original`)).status).toBe(200);

    await (await clientAs(app, creator.id)).trpc.account.deleteAllData.mutate({ password: creator.password });

    // 20 of 30 days were left when the creator went (the last one begun, so 19 whole days): 99.00 × 19/30 = 62.70
    await jobIn(app.deps.queues.maintenance, `provider-refund-prorata-refund-${a.subscriptionId}-${a.periodEnd.getTime()}`, 'completed');
    await jobIn(app.deps.queues.maintenance, `cancel-provider-subscription-stripe-${stripeId}`, 'completed');
    await waitFor(async () => (await ledgerOf(b.paymentId)).length === 2, 20_000, 'the Stripe fan refunded');
    expect(await ledgerOf(a.paymentId)).toEqual([
      { kind: 'charge', amount: '99.00', user_id: builtinFan.id },
      { kind: 'refund', amount: '-62.70', user_id: builtinFan.id },
    ]);
    expect(await ledgerOf(b.paymentId)).toEqual([
      { kind: 'charge', amount: '99.00', user_id: stripeFan.id },
      { kind: 'refund', amount: '-62.70', user_id: stripeFan.id },
    ]);
    expect(fakeStripe.subscriptionStatus(stripeId)).toBe('canceled');
    const refunds = stripeCalls('POST', '/v1/refunds').filter((r) => r.params.payment_intent === `pi_${stripeId}`);
    expect(refunds).toEqual([expect.objectContaining({ params: expect.objectContaining({ amount: '6270' }) })]);
    // the fan's history shows the refund; the premium post is gone with the data
    expect((await asBuiltinFan.trpc.payments.history.query()).map((p) => p.amount)).toEqual(expect.arrayContaining(['99.00', '-62.70']));
    expect((await asBuiltinFan.fetch(`/media/${premium.id}/original`)).status).toBe(404);
  });

  it('a refund the provider cannot make yet is made once it can, once', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const stripeId = `sub_outage_${randomUUID().slice(0, 8)}`;
    const { paymentId } = await paidSubscription(fan, creator.id, await tierOf(creator.id), stripeId, 40_00);
    const job = { data: { paymentId, amountCents: 10_00, systemKey: `prorata-refund-test-${randomUUID()}` } };
    const run = () => maintenanceHandlers['provider-refund'](job as never, app.deps as unknown as WorkerDeps);

    fakeStripe.failNext('POST', '/v1/refunds', 1);
    await expect(run()).rejects.toThrow();
    expect(await ledgerOf(paymentId)).toHaveLength(1);
    expect(await run()).toMatchObject({ refundedCents: 10_00 });
    expect(await run()).toEqual({ skipped: 'done' });
    expect(await ledgerOf(paymentId)).toEqual([
      { kind: 'charge', amount: '40.00', user_id: fan.id },
      { kind: 'refund', amount: '-10.00', user_id: fan.id },
    ]);
    // the provider saw one key for both tries: it refunds once
    const keys = stripeCalls('POST', '/v1/refunds').filter((r) => r.params.payment_intent === `pi_${stripeId}`).map((r) => r.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([job.data.systemKey]));
  });

  it('a refund job queued before money was cents, its amount in rand, refunds that amount', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const stripeId = `sub_rand_${randomUUID().slice(0, 8)}`;
    const { paymentId } = await paidSubscription(fan, creator.id, await tierOf(creator.id), stripeId, 40_00);
    const job = { data: { paymentId, amount: '12.34', systemKey: `prorata-refund-test-${randomUUID()}` } };
    expect(await maintenanceHandlers['provider-refund'](job as never, app.deps as unknown as WorkerDeps)).toMatchObject({ refundedCents: 12_34 });
    expect(stripeCalls('POST', '/v1/refunds').filter((r) => r.params.payment_intent === `pi_${stripeId}`)).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ amount: '1234' }) }),
    ]);
    expect((await ledgerOf(paymentId)).map((p) => p.amount)).toEqual(['40.00', '-12.34']);
  });
});

