import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../common/texts';
import { makePost, makeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { jobIn } from '../helpers/jobs';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';
import { clientAs } from '../helpers/trpc';
import { storedRand } from '../helpers/money';

/**
 * Issue 45 item 4, with Stripe (offline, the fake Stripe): money paid at Stripe for something
 * deleted meanwhile was recorded as 'ignored' while Stripe kept it (and renewed the subscription).
 * Now it is recorded (a charge the fan sees, then its refund) and given back through the outbox
 * (the undo job cancels the Stripe subscription now and refunds; the provider-refund job for a
 * one-off purchase). Checkout pages expire in 30 minutes, and a price that changed between opening
 * Checkout and paying is honoured at the price the fan confirmed (docs/payments.md).
 */
const { app, fakeStripe } = useStripeTestServer();
const undoJobId = (eventId: string) => `undo-duplicate-checkout-${eventId}`;
const lastSession = () => [...fakeStripe.sessions.values()].at(-1)!;

async function fanAndTier(price = '40') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fan = await makeUser(app.deps.db);
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price, paymentInterval: 'monthly' });
  return { creator, asCreator, fan, asFan: await clientAs(app, fan.id), tier };
}
const checkoutEvent = (tag: string, fanId: string, tierId: string, cents = 4000) =>
  stripeEvent(`evt_${tag}`, 'checkout.session.completed', {
    id: `cs_${tag}`, object: 'checkout.session', subscription: `sub_${tag}`, invoice: `in_${tag}`, amount_total: cents, payment_status: 'paid',
    metadata: { userId: fanId, tierId, idempotencyKey: `key-${tag}-0123456789abcdef` },
  });
const ledgerOf = async (filter: { userId?: string; ref?: string }) =>
  (
    await app.deps.db
      .selectFrom('payments as p')
      .leftJoin('payments as c', 'c.id', 'p.reverses_payment_id')
      .select(['p.kind', 'p.amount_cents', 'p.user_id', 'p.description', 'p.subscription_id'])
      .where((eb) => (filter.userId ? eb('p.user_id', '=', filter.userId) : eb.or([eb('p.provider_ref', '=', filter.ref!), eb('c.provider_ref', '=', filter.ref!)])))
      .orderBy('p.created_at')
      .execute()
  ).map(({ amount_cents, ...p }) => ({ ...p, amount: storedRand(amount_cents) }));

describe('paid at Stripe for something gone', () => {
  it('a Checkout for a tier deleted meanwhile is recorded, refunded in full and its Stripe subscription cancelled; the fan sees it refunded', async () => {
    const { fan, asFan, tier } = await fanAndTier();
    await app.deps.db.deleteFrom('subscription_tiers').where('id', '=', tier.id).execute();
    const checkout = checkoutEvent(`gonetier_${randomUUID().slice(0, 6)}`, fan.id, tier.id);
    const subId = (checkout.data.object as { subscription: string }).subscription;
    const invoice = (checkout.data.object as { invoice: string }).invoice;

    expect((await sendSigned(app.url, checkout)).outcome).toBe('applied');
    await jobIn(app.deps.queues.maintenance, undoJobId(checkout.id), 'completed');
    expect(fakeStripe.subscriptionStatus(subId)).toBe('canceled');
    expect(fakeStripe.refundsOf(fakeStripe.intentOf(invoice)).map((r) => r.amount)).toEqual([4000]);
    expect((await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.label]).sort()).toEqual([['-40.00', 'refund'], ['40.00', 'refunded']]);
    expect((await ledgerOf({ userId: fan.id })).map((p) => [p.kind, p.description, p.subscription_id])).toEqual([
      ['charge', BILLING_TEXTS.planGone, null], ['refund', BILLING_TEXTS.planGone, null],
    ]);
    expect(await asFan.trpc.subscriptions.mine.query()).toEqual([]);
    // Stripe redelivers it: nothing more
    expect((await sendSigned(app.url, checkout)).outcome).toBe('duplicate');
    expect(fakeStripe.refundsOf(fakeStripe.intentOf(invoice))).toHaveLength(1);
  });

  it('a Checkout paid by a fan whose account was deleted meanwhile is recorded without an owner and refunded', async () => {
    const { fan, tier } = await fanAndTier();
    await app.deps.db.deleteFrom('users').where('id', '=', fan.id).execute();
    const checkout = checkoutEvent(`gonefan_${randomUUID().slice(0, 6)}`, fan.id, tier.id);
    const invoice = (checkout.data.object as { invoice: string }).invoice;
    expect((await sendSigned(app.url, checkout)).outcome).toBe('applied');
    await jobIn(app.deps.queues.maintenance, undoJobId(checkout.id), 'completed');
    expect(fakeStripe.subscriptionStatus((checkout.data.object as { subscription: string }).subscription)).toBe('canceled');
    expect(fakeStripe.refundsOf(fakeStripe.intentOf(invoice)).map((r) => r.amount)).toEqual([4000]);
    expect((await ledgerOf({ ref: invoice })).map((p) => [p.kind, p.amount, p.user_id])).toEqual([['charge', '40.00', null], ['refund', '-40.00', null]]);
  });

  it('a renewal (invoice.paid) of a subscription deleted here with its tier is recorded, refunded and ends the Stripe subscription; an invoice of a subscription not ours is left alone', async () => {
    const { fan, asFan, tier } = await fanAndTier();
    const tag = `gonerenew_${randomUUID().slice(0, 6)}`;
    expect((await sendSigned(app.url, checkoutEvent(tag, fan.id, tier.id))).outcome).toBe('applied');
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => s.status)).toEqual(['active']);
    // the tier goes (with its subscriptions) before Stripe's next invoice arrives
    await app.deps.db.deleteFrom('subscription_tiers').where('id', '=', tier.id).execute();
    const renewal = stripeEvent(`evt_${tag}_renew`, 'invoice.paid', {
      id: `in_${tag}_2`, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 4000,
      parent: { subscription_details: { subscription: `sub_${tag}`, metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: 'k' } } },
    });
    expect((await sendSigned(app.url, renewal)).outcome).toBe('applied');
    await jobIn(app.deps.queues.maintenance, undoJobId(renewal.id), 'completed');
    expect(fakeStripe.subscriptionStatus(`sub_${tag}`)).toBe('canceled');
    expect(fakeStripe.refundsOf(fakeStripe.intentOf(`in_${tag}_2`)).map((r) => r.amount)).toEqual([4000]);
    expect((await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.label]).sort()).toEqual([['-40.00', 'refund'], ['40.00', 'paid'], ['40.00', 'refunded']]);

    const foreign = stripeEvent(`evt_${tag}_foreign`, 'invoice.paid', {
      id: `in_${tag}_foreign`, object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 999, parent: { subscription_details: { subscription: `sub_${tag}_foreign` } },
    });
    expect((await sendSigned(app.url, foreign)).outcome).toBe('ignored');
    expect(fakeStripe.subscriptionStatus(`sub_${tag}_foreign`)).toBe('active');
  });

  it('an unlock paid on Checkout for a post deleted meanwhile is recorded and refunded through the provider-refund job, and unlocks nothing', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', unlock: { priceCents: 7500, mode: 'everyone' } });
    expect((await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() })).kind).toBe('redirect');
    const session = lastSession();
    await app.deps.db.deleteFrom('posts').where('id', '=', post.id).execute();

    const paid = fakeStripe.payCheckout(session.id);
    expect((await sendSigned(app.url, stripeEvent(`evt_goneppv_${randomUUID().slice(0, 6)}`, 'checkout.session.completed', paid))).outcome).toBe('applied');
    await expect.poll(() => fakeStripe.refundsOf(session.paymentIntent!).map((r) => r.amount), { timeout: 15_000 }).toEqual([7500]);
    await expect.poll(async () => (await ledgerOf({ userId: fan.id })).map((p) => `${p.kind} ${p.amount}`), { timeout: 15_000 }).toEqual(['charge 75.00', 'refund -75.00']);
    expect(await app.deps.db.selectFrom('post_unlocks').select('id').where('fan_id', '=', fan.id).execute()).toEqual([]);
  });
});

describe('Checkout pages and prices', () => {
  it('every Checkout session expires 30 minutes after it opens (not Stripe\'s 24 hours)', async () => {
    const { asFan, tier, creator } = await fanAndTier();
    const expiresIn = () => Number(lastSession().params.expires_at) - Date.now() / 1000;
    expect((await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' })).kind).toBe('redirect');
    expect(lastSession().mode).toBe('subscription');
    expect(expiresIn()).toBeGreaterThan(30 * 60);
    expect(expiresIn()).toBeLessThanOrEqual(37 * 60);
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', unlock: { priceCents: 7500, mode: 'everyone' } });
    expect((await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() })).kind).toBe('redirect');
    expect(lastSession().mode).toBe('payment');
    expect(expiresIn()).toBeGreaterThan(30 * 60);
    expect(expiresIn()).toBeLessThanOrEqual(37 * 60);
  });

  it('a price raised between opening Checkout and paying is honoured at the price the fan confirmed', async () => {
    const { fan, asFan, asCreator, tier } = await fanAndTier();
    expect((await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' })).kind).toBe('redirect');
    await asCreator.trpc.tiers.update.mutate({ id: tier.id, name: 'Gold', price: '500', paymentInterval: 'monthly' });
    expect((await sendSigned(app.url, checkoutEvent(`honour_${randomUUID().slice(0, 6)}`, fan.id, tier.id))).outcome).toBe('applied');
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => [s.status, s.tier.discountedPrice])).toEqual([['active', '40.00']]);
    expect((await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.label])).toEqual([['40.00', 'paid']]);
  });
});
