import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import type { CheckoutRequest, PaymentProvider } from '../../core/payments/provider';
import { purchase } from '../../domain/billing/purchase';
import { makePost, makeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { jobIn } from '../helpers/jobs';
import { STRIPE_TEST_ENV } from '../helpers/stripe-events';
import { clientAs } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Stripe webhooks, offline: events signed with the stripe package's own test signatures
 * (`generateTestHeaderString`) against STRIPE_WEBHOOK_SECRET; what the app asks of Stripe's API
 * goes to a fake Stripe on a local port (STRIPE_API_URL, tests/helpers/fake-stripe.ts).
 */
const SECRET = STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET;
const stripe = new Stripe('sk_test_offline');
const { app, fakeStripe } = useStripeTestServer();

const post = (body: string, signature: string | null) =>
  fetch(`${app.url}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
    body,
  });
const signed = (event: object) => {
  const payload = JSON.stringify(event);
  return post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }));
};
const event = (id: string, type: string, object: object) => ({ id, object: 'event', type, data: { object } });

describe('POST /webhooks/stripe', () => {
  it('activates once from a signed checkout, refuses forged and unsigned bodies, renews, marks past due and ends', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asCreator = await clientAs(app, creator.id);
    const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 20 });
    const premiumPost = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
    const asFan = await clientAs(app, fan.id);
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(403);
    expect((await app.client().trpc.subscriptions.provider.query()).provider).toBe('stripe');

    const checkout = event('evt_checkout_1', 'checkout.session.completed', {
      id: 'cs_test_1',
      object: 'checkout.session',
      subscription: 'sub_test_1',
      invoice: 'in_test_first',
      amount_total: 4000,
      payment_status: 'paid',
      metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: 'key-0123456789abcdef' },
    });

    // forged: signed with another secret, a tampered body, or no signature at all
    const payload = JSON.stringify(checkout);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' });
    expect((await post(payload, forged)).status).toBe(400);
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect((await post(payload.replace('4000', '1'), good)).status).toBe(400);
    expect((await post(payload, null)).status).toBe(400);
    expect(await app.deps.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);

    // valid, then replayed (and redelivered concurrently): applied once
    const first = await signed(checkout);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, outcome: 'applied' });
    const replays = await Promise.all([signed(checkout), signed(checkout), signed(checkout)]);
    for (const r of replays) expect(await r.json()).toEqual({ received: true, outcome: 'duplicate' });
    const subs = await app.deps.db.selectFrom('subscriptions').selectAll().where('subscriber_id', '=', fan.id).execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ provider: 'stripe', provider_subscription_id: 'sub_test_1', status: 'active' });
    expect(await asFan.trpc.payments.history.query()).toEqual([expect.objectContaining({ amount: '40.00', provider: 'stripe', status: 'succeeded' })]);
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(200);

    // the first invoice belongs to the checkout: no second payment
    const firstInvoice = { id: 'in_test_first', object: 'invoice', billing_reason: 'subscription_create', amount_paid: 4000, parent: { subscription_details: { subscription: 'sub_test_1' } } };
    expect(await (await signed(event('evt_inv_1', 'invoice.paid', firstInvoice))).json()).toEqual({ received: true, outcome: 'ignored' });

    // a renewal: the next period and a payment, once
    const periodEnd = Math.floor(subs[0]!.current_period_end.getTime() / 1000) + 31 * 86400;
    const renewal = event('evt_inv_2', 'invoice.paid', {
      id: 'in_test_2', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 4000,
      parent: { subscription_details: { subscription: 'sub_test_1' } },
      lines: { data: [{ period: { start: 0, end: periodEnd } }] },
    });
    await signed(renewal);
    await signed(renewal);
    expect(await asFan.trpc.payments.history.query()).toHaveLength(2);
    const renewed = await app.deps.db.selectFrom('subscriptions').select(['current_period_end']).where('id', '=', subs[0]!.id).executeTakeFirstOrThrow();
    expect(renewed.current_period_end).toEqual(new Date(periodEnd * 1000));

    // a failed payment: past due with a grace
    await signed(event('evt_inv_3', 'invoice.payment_failed', { id: 'in_test_3', object: 'invoice', subscription: 'sub_test_1' }));
    expect((await asFan.trpc.subscriptions.mine.query())[0]).toMatchObject({ status: 'past_due' });

    // Stripe ends it: access goes at once
    await signed(event('evt_sub_end', 'customer.subscription.deleted', { id: 'sub_test_1', object: 'subscription' }));
    expect((await asFan.trpc.subscriptions.mine.query())[0]).toMatchObject({ status: 'ended' });
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(403);
    expect(await app.deps.db.selectFrom('billing_events').select('event_id').orderBy('event_id').execute()).toHaveLength(5);
  });

  it('a signature dated more than five minutes ahead of the server\'s clock is refused and records nothing, as an old one is; one a minute ahead is accepted', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly' });
    const tag = randomUUID().slice(0, 8);
    const checkout = event(`evt_future_${tag}`, 'checkout.session.completed', {
      id: `cs_future_${tag}`,
      object: 'checkout.session',
      subscription: `sub_future_${tag}`,
      invoice: `in_future_${tag}`,
      amount_total: 5000,
      payment_status: 'paid',
      metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: `key-future-${tag}-0123456789` },
    });
    const payload = JSON.stringify(checkout);
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    const signedAt = (timestamp: number) => stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp });
    const recorded = async () => ({
      events: await app.deps.db.selectFrom('billing_events').select('event_id').where('event_id', '=', checkout.id).execute(),
      subscriptions: await app.deps.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan.id).execute(),
    });

    // ten minutes ahead, and (as Stripe's library already refuses) ten minutes old: 400, nothing written
    for (const timestamp of [nowSeconds() + 600, nowSeconds() - 600]) {
      const res = await post(payload, signedAt(timestamp));
      expect(res.status, `t = now ${timestamp > nowSeconds() ? '+' : '-'} 10 min`).toBe(400);
      expect(await res.json()).toEqual({ error: { message: 'Invalid signature' } });
    }
    expect(await recorded()).toEqual({ events: [], subscriptions: [] });

    // a minute ahead (a clock a little behind Stripe's) is within the window
    const res = await post(payload, signedAt(nowSeconds() + 60));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'applied' });
    const after = await recorded();
    expect(after.events).toEqual([{ event_id: checkout.id }]);
    expect(after.subscriptions).toHaveLength(1);
  });

  it('a checkout provider answers a redirect to its page with our return addresses, and writes nothing until the webhook', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 20 });
    const asked: CheckoutRequest[] = [];
    const provider: PaymentProvider = {
      ...builtinProvider,
      name: 'stripe',
      flow: 'checkout',
      async createCheckout(request) {
        asked.push(request);
        return { url: 'https://checkout.stripe.test/c/pay/cs_test_2', ref: 'cs_test_2' };
      },
    };
    const { result } = await purchase(
      { db: app.deps.db, provider, clock: app.deps.clock, appUrl: 'https://creatorhub.example', earnings: DEFAULT_EARNINGS_POLICY },
      { userId: fan.id, email: fan.email, username: fan.username, tierId: tier.id, idempotencyKey: 'key-abcdef0123456789', kind: 'creator' },
    );
    expect(result).toEqual({ kind: 'redirect', url: 'https://checkout.stripe.test/c/pay/cs_test_2' });
    expect(asked).toEqual([
      expect.objectContaining({
        userId: fan.id,
        amountCents: 40_00,
        interval: 'monthly',
        idempotencyKey: 'key-abcdef0123456789',
        successUrl: `https://creatorhub.example/${creator.username}?checkout=success`,
        cancelUrl: `https://creatorhub.example/${creator.username}/subscribe?checkout=cancelled`,
      }),
    ]);
    expect(await app.deps.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).execute()).toEqual([]);
  });

  /** A fan, a creator's R50 tier at 20% off, and a Checkout completion event for one tab. */
  async function twoTabs(tag: string) {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asCreator = await clientAs(app, creator.id);
    const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 20 });
    const tab = (n: number) =>
      event(`evt_${tag}_${n}`, 'checkout.session.completed', {
        id: `cs_${tag}_${n}`,
        object: 'checkout.session',
        subscription: `sub_${tag}_${n}`,
        invoice: `in_${tag}_${n}`,
        amount_total: 4000,
        payment_status: 'paid',
        metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: `key-${tag}-tab-${n}-0123456789` },
      });
    return { asCreator, asFan: await clientAs(app, fan.id), fan, first: tab(1), second: tab(2) };
  }
  const outcomeOf = async (e: object) => ((await (await signed(e)).json()) as { outcome: string }).outcome;
  const undoJobId = (eventId: string) => `undo-duplicate-checkout-${eventId}`;

  it('a second checkout for the same creator (two tabs) is cancelled at Stripe at once and refunded: the fan pays once, the ledger says so', async () => {
    const { asCreator, asFan, fan, first, second } = await twoTabs('tabs');
    const seen = fakeStripe.requests.length;
    expect(await outcomeOf(first)).toBe('applied');
    expect(await outcomeOf(second)).toBe('applied');
    await jobIn(app.deps.queues.maintenance, undoJobId(second.id), 'completed');

    // one subscription, the first tab's
    const subs = await app.deps.db.selectFrom('subscriptions').selectAll().where('subscriber_id', '=', fan.id).execute();
    expect(subs).toEqual([expect.objectContaining({ provider_subscription_id: 'sub_tabs_1', status: 'active' })]);
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => s.status)).toEqual(['active']);

    // at Stripe: the second subscription cancelled now (a DELETE, not cancel_at_period_end), and
    // the payment of its first invoice refunded in full with a key from our reference
    const asked = fakeStripe.requests.slice(seen);
    // (each checkout first asks whether Stripe has ended its subscription: docs/payments.md, event order)
    expect(asked.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/subscriptions/sub_tabs_1', 'GET /v1/subscriptions/sub_tabs_2',
      'DELETE /v1/subscriptions/sub_tabs_2', 'GET /v1/invoice_payments', 'POST /v1/refunds',
    ]);
    expect(asked[3]!.params).toMatchObject({ invoice: 'in_tabs_2', status: 'paid' });
    expect(asked[4]!.params).toMatchObject({ payment_intent: fakeStripe.intentOf('in_tabs_2'), amount: '4000' });
    expect(asked[4]!.idempotencyKey).toBe('refund-in_tabs_2');
    expect(fakeStripe.subscriptionStatus('sub_tabs_2')).toBe('canceled');
    expect(fakeStripe.subscriptionStatus('sub_tabs_1')).toBe('active');

    // the fan's history: paid once, the second charge refunded; the creator earns one payment
    const history = await asFan.trpc.payments.history.query();
    expect(history.map((p) => [p.amount, p.label]).sort()).toEqual([['-40.00', 'refund'], ['40.00', 'paid'], ['40.00', 'refunded']]);
    expect((await asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('32.00');

    // Stripe redelivers either event (and its own follow-ups for the cancelled one): nothing changes
    expect(await outcomeOf(second)).toBe('duplicate');
    expect(await outcomeOf(first)).toBe('duplicate');
    expect(await outcomeOf(event('evt_tabs_2_deleted', 'customer.subscription.deleted', { id: 'sub_tabs_2', object: 'subscription' }))).toBe('ignored');
    await app.drain('maintenance');
    expect(fakeStripe.requests.slice(seen)).toHaveLength(5);
    expect(await asFan.trpc.payments.history.query()).toEqual(history);
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => s.status)).toEqual(['active']);
  });

  it('a refund Stripe fails is tried again by the job, the ledger saying paid until Stripe has refunded; an undo not queued is queued by the redelivery', async () => {
    const { asCreator, asFan, first, second } = await twoTabs('retry');
    const queue = app.deps.queues.maintenance;
    await signed(first);

    // the undo job is lost before it runs (as when queueing fails after the commit and the webhook
    // answers 500): Stripe's redelivery, a duplicate event, queues it again
    await queue.pause();
    expect(await outcomeOf(second)).toBe('applied');
    await (await queue.getJob(undoJobId(second.id)))!.remove();
    expect(await outcomeOf(second)).toBe('duplicate');
    expect(await queue.getJob(undoJobId(second.id))).toBeDefined();

    // Stripe answers the refund with an error once: the job waits for its next attempt
    fakeStripe.failNext('POST', '/v1/refunds');
    const seen = fakeStripe.requests.length;
    await queue.resume();
    const waiting = await jobIn(queue, undoJobId(second.id), 'delayed');
    expect(waiting.attemptsMade).toBe(1);
    const statuses = async () => (await asFan.trpc.payments.history.query()).map((p) => p.label).sort();
    expect(await statuses()).toEqual(['paid', 'paid']);
    // the creator's net earnings: the refund's share came off when it was decided, before Stripe made it
    expect((await asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('32.00');

    await waiting.promote();
    await jobIn(queue, undoJobId(second.id), 'completed');
    expect(await statuses()).toEqual(['paid', 'refund', 'refunded']);
    expect((await asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('32.00');
    // the second attempt finds the subscription cancelled by the first, and refunds with the same key
    const asked = fakeStripe.requests.slice(seen);
    expect(asked.map((r) => `${r.method} ${r.path}`)).toEqual([
      'DELETE /v1/subscriptions/sub_retry_2', 'GET /v1/invoice_payments', 'POST /v1/refunds',
      'DELETE /v1/subscriptions/sub_retry_2', 'GET /v1/subscriptions/sub_retry_2', 'GET /v1/invoice_payments', 'POST /v1/refunds',
    ]);
    expect(asked.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey)).toEqual(['refund-in_retry_2', 'refund-in_retry_2']);
    expect(fakeStripe.subscriptionStatus('sub_retry_2')).toBe('canceled');
  });
});
