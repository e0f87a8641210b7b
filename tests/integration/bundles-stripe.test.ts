import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addCalendarMonths } from '../../common/billing-periods';
import { makeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';
import { clientAs } from '../helpers/trpc';

/**
 * Bundles with Stripe (docs/payments.md, Bundles): the Checkout is a subscription at the bundle's
 * total billed every N intervals (price_data.recurring.interval_count), and its webhook starts a
 * subscription N periods long; Stripe's renewals (invoice.paid) move it N periods at a time.
 */
const { app, fakeStripe } = useStripeTestServer();

describe('bundles with Stripe', () => {
  it("a bundle's Checkout bills its total every 3 months; the webhook starts 3 months; a renewal without Stripe's period end adds 3 more", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '40', paymentInterval: 'monthly' });
    await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [{ periods: 3, percent: 10 }] });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const key = randomUUID();

    // a single month first: no interval_count, so the check below could see its absence
    await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    const single = fakeStripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(single.params['line_items[0][price_data][recurring][interval_count]']).toBeUndefined();

    const result = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '108.00', bundlePeriods: 3 });
    expect(result).toMatchObject({ kind: 'redirect', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const checkout = fakeStripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(checkout.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '10800',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][recurring][interval_count]': '3',
      'metadata[bundlePeriods]': '3',
      'subscription_data[metadata][bundlePeriods]': '3',
    });
    // nothing is written before Stripe says it is paid
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).execute()).toEqual([]);

    const session = {
      id: 'cs_bundle_1', object: 'checkout.session', subscription: 'sub_bundle_1', invoice: 'in_bundle_1', amount_total: 10800, payment_status: 'paid',
      metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: key, bundlePeriods: '3' },
    };
    const completed = stripeEvent('evt_bundle_1', 'checkout.session.completed', session);
    expect((await sendSigned(app.url, completed)).outcome).toBe('applied');
    expect((await sendSigned(app.url, completed)).outcome).not.toBe('applied');
    const sub = await app.deps.db.selectFrom('subscriptions').select(['id', 'current_period_start', 'current_period_end', 'bundle_periods', 'price_cents']).where('subscriber_id', '=', fan.id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ bundle_periods: 3, price_cents: '10800', current_period_end: addCalendarMonths(sub.current_period_start, 3) });
    expect((await app.deps.db.selectFrom('payments').select(['amount_cents', 'description']).where('user_id', '=', fan.id).execute())).toMatchObject([
      { amount_cents: '10800', description: expect.stringMatching(/ — Gold — 3 months$/) },
    ]);

    // Stripe's renewal invoice without a period of its own: 3 months more, one payment
    const renewal = stripeEvent('evt_bundle_2', 'invoice.paid', {
      id: 'in_bundle_2', object: 'invoice', billing_reason: 'subscription_cycle', amount_paid: 10800, parent: { subscription_details: { subscription: 'sub_bundle_1' } },
    });
    await sendSigned(app.url, renewal);
    await sendSigned(app.url, renewal);
    const renewed = await app.deps.db.selectFrom('subscriptions').select(['current_period_end']).where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(renewed.current_period_end).toEqual(addCalendarMonths(sub.current_period_end, 3));
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).execute()).toHaveLength(2);
  });
});
