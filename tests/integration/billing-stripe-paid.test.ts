import { BRAND } from '../../common/texts';
import { describe, expect, it } from 'vitest';
import { makePost, makeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';
import { clientAs } from '../helpers/trpc';

/**
 * Paid means paid (issue 22 §5, docs/payments.md): a Checkout grants access only once its money
 * is in, and the order in which Stripe's events arrive never leaves access Stripe has ended.
 */
const { app, fakeStripe } = useStripeTestServer();

/** A creator's R50 tier, a premium post of theirs, a fan, and the fan's Checkout session for it. */
async function setUp(tag: string, price = '50') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fan = await makeUser(app.deps.db);
  const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price, paymentInterval: 'monthly', discountPercentage: price === '50' ? 0 : 100 });
  const premiumPost = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
  const asFan = await clientAs(app, fan.id);
  const session = (paymentStatus: string, amountTotal = 5000) => ({
    id: `cs_${tag}`,
    object: 'checkout.session',
    subscription: `sub_${tag}`,
    invoice: `in_${tag}`,
    amount_total: amountTotal,
    payment_status: paymentStatus,
    metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: `key-${tag}-0123456789abcdef` },
  });
  const media = async () => (await asFan.fetch(`/media/${premiumPost.id}/original`)).status;
  const statuses = async () => (await asFan.trpc.subscriptions.mine.query()).map((s) => s.status);
  return { fan, asFan, session, media, statuses };
}

describe('paid means paid', () => {
  it('an unpaid completed Checkout grants nothing; its async_payment_succeeded grants access, once', async () => {
    const { asFan, session, media, statuses } = await setUp('async_ok');
    expect(await sendSigned(app.url, stripeEvent('evt_async_ok_1', 'checkout.session.completed', session('unpaid')))).toEqual({ status: 200, outcome: 'ignored' });
    expect(await statuses()).toEqual([]);
    expect(await asFan.trpc.payments.history.query()).toEqual([]);
    expect(await media()).toBe(403);

    const succeeded = stripeEvent('evt_async_ok_2', 'checkout.session.async_payment_succeeded', session('paid'));
    expect((await sendSigned(app.url, succeeded)).outcome).toBe('applied');
    expect((await sendSigned(app.url, succeeded)).outcome).toBe('duplicate');
    expect(await statuses()).toEqual(['active']);
    expect((await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.status])).toEqual([['50.00', 'succeeded']]);
    expect(await media()).toBe(200);
  });

  it('an async payment that fails starts nothing and tells the fan by mail', async () => {
    const { fan, asFan, session, media, statuses } = await setUp('async_fail');
    await sendSigned(app.url, stripeEvent('evt_async_fail_1', 'checkout.session.completed', session('unpaid')));
    const failed = stripeEvent('evt_async_fail_2', 'checkout.session.async_payment_failed', session('unpaid'));
    expect((await sendSigned(app.url, failed)).outcome).toBe('applied');
    expect((await sendSigned(app.url, failed)).outcome).toBe('duplicate');
    expect(await statuses()).toEqual([]);
    expect(await asFan.trpc.payments.history.query()).toEqual([]);
    expect(await media()).toBe(403);
    const mails = (await app.outbox()).filter((m) => m.to === fan.email);
    expect(mails.map((m) => m.subject)).toEqual([`Your ${BRAND.name} payment did not go through`]);
    expect(mails[0]!.text).toContain('the subscription has not started and nothing was charged');
  });

  it('no_payment_required counts only where the price is zero', async () => {
    const paidTier = await setUp('nopay_paid');
    expect((await sendSigned(app.url, stripeEvent('evt_nopay_paid', 'checkout.session.completed', paidTier.session('no_payment_required', 0)))).outcome).toBe('ignored');
    expect(await paidTier.statuses()).toEqual([]);
    expect(await paidTier.media()).toBe(403);

    const freeTier = await setUp('nopay_free', '10');
    expect((await sendSigned(app.url, stripeEvent('evt_nopay_free', 'checkout.session.completed', freeTier.session('no_payment_required', 0)))).outcome).toBe('applied');
    expect(await freeTier.statuses()).toEqual(['active']);
    expect(await freeTier.media()).toBe(200);
  });

  it('a subscription Stripe deleted before its checkout.session.completed arrived is recorded ended, never active', async () => {
    const { asFan, session, media, statuses } = await setUp('late');
    fakeStripe.endSubscription('sub_late');
    expect((await sendSigned(app.url, stripeEvent('evt_late_deleted', 'customer.subscription.deleted', { id: 'sub_late', object: 'subscription', status: 'canceled' }))).outcome).toBe('ignored');
    expect((await sendSigned(app.url, stripeEvent('evt_late_completed', 'checkout.session.completed', session('paid')))).outcome).toBe('applied');
    expect(await statuses()).toEqual(['ended']);
    expect(await media()).toBe(403);
    // the money Stripe took is in the ledger (a refund of it comes as charge.refunded)
    expect((await asFan.trpc.payments.history.query()).map((p) => p.amount)).toEqual(['50.00']);
  });

  it('a renewal invoice arriving after the deletion does not bring the subscription back', async () => {
    const { session, media, statuses } = await setUp('after_end');
    await sendSigned(app.url, stripeEvent('evt_after_end_1', 'checkout.session.completed', session('paid')));
    expect(await media()).toBe(200);
    fakeStripe.endSubscription('sub_after_end');
    await sendSigned(app.url, stripeEvent('evt_after_end_2', 'customer.subscription.deleted', { id: 'sub_after_end', object: 'subscription', status: 'canceled' }));
    const invoice = { id: 'in_after_end_2', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 5000, parent: { subscription_details: { subscription: 'sub_after_end' } } };
    expect((await sendSigned(app.url, stripeEvent('evt_after_end_3', 'invoice.paid', invoice))).outcome).toBe('applied');
    expect(await statuses()).toEqual(['ended']);
    expect(await media()).toBe(403);
  });
});
