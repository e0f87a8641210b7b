import { paymentShares } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addCalendarMonths } from '../../common/billing-periods';
import { fixedClock } from '../../core/clock';
import { builtinProvider } from '../../core/payments/builtin';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { nextCalendarDay } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { storedRand } from '../helpers/money';

/**
 * Bundles (issue 27 item 5; docs/payments.md, Bundles): a creator sells a tier for 3, 6 or 12
 * periods at once at a discount they set; the fan confirms the bundle's total, is charged once,
 * and the period runs that many periods; at its end it renews as the same bundle, charged once.
 */
// the next January 31st (months are calendar months: Feb 28 comes next), ahead of the real time
// that the SQL reading "active" uses
const T0 = nextCalendarDay(0, 31, 12);
const clock = fixedClock(T0);
const app = useTestServer({ clock });

/** A creator's monthly R50 tier at 20% off (R40 a month) with a 3-month bundle at 10% off (R108). */
async function creatorWithBundle() {
  clock.set(T0);
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 20 });
  await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [{ periods: 3, percent: 10 }, { periods: 12, percent: 30 }] });
  return { creator, asCreator, tier };
}
const payments = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select(['id', 'amount_cents', 'status', 'description']).where('user_id', '=', userId).orderBy('created_at').execute()).map(
    ({ amount_cents, ...p }) => ({ ...p, amount: storedRand(amount_cents) }),
  );
const subscriptionOf = async (userId: string) => {
  const { price_cents, ...sub } = await app.deps.db
    .selectFrom('subscriptions')
    .select(['id', 'current_period_start', 'current_period_end', 'price_cents', 'bundle_periods'])
    .where('subscriber_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { ...sub, price: storedRand(price_cents) };
};

describe('bundles', () => {
  it('the creator sets bundles on their own tiers only, 1-75 % in whole numbers, for weekly and monthly tiers', async () => {
    const { asCreator, tier, creator } = await creatorWithBundle();
    // nothing changed yet for a tier without bundles: the check below could see a change
    const bare = await asCreator.trpc.tiers.create.mutate({ name: 'Silver', price: '20', paymentInterval: 'weekly' });
    expect((await asCreator.trpc.bundles.listMine.query()).filter((b) => b.tierId === bare.id)).toEqual([]);
    expect(await asCreator.trpc.bundles.listMine.query()).toEqual([
      { tierId: tier.id, periods: 3, percent: 10, total: '108.00', saving: '12.00' },
      { tierId: tier.id, periods: 12, percent: 30, total: '336.00', saving: '144.00' },
    ]);
    for (const bad of [{ periods: 3, percent: 0 }, { periods: 3, percent: 76 }, { periods: 3, percent: 2.5 }, { periods: 4, percent: 10 }]) {
      await expectTrpcError(asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [bad as { periods: 3; percent: number }] }), 'BAD_REQUEST');
    }
    // the same length twice
    await expectTrpcError(asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [{ periods: 3, percent: 10 }, { periods: 3, percent: 20 }] }), 'BAD_REQUEST');
    const annual = await asCreator.trpc.tiers.create.mutate({ name: 'Year', price: '400', paymentInterval: 'annually' });
    await expectTrpcError(asCreator.trpc.bundles.set.mutate({ tierId: annual.id, bundles: [{ periods: 3, percent: 10 }] }), 'BAD_REQUEST', 'Bundles are for weekly and monthly tiers.');
    // another creator's tier id is nobody's to change; a fan is no creator
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    await expectTrpcError(asOther.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [] }), 'NOT_FOUND', 'Subscription tier not found');
    expect(await asOther.trpc.bundles.listMine.query()).toEqual([]);
    const fan = await makeUser(app.deps.db);
    await expectTrpcError((await clientAs(app, fan.id)).trpc.bundles.set.mutate({ tierId: tier.id, bundles: [] }), 'FORBIDDEN');
    // nothing of the refused writes landed; a valid change replaces the set
    expect((await asCreator.trpc.bundles.listMine.query()).filter((b) => b.tierId === tier.id)).toHaveLength(2);
    expect(await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [{ periods: 6, percent: 15 }] })).toEqual([{ tierId: tier.id, periods: 6, percent: 15, total: '204.00', saving: '36.00' }]);
    // the fan's page shows what is left
    const page = await (await clientAs(app, fan.id)).trpc.subscriptions.subscribePage.query({ username: creator.username });
    expect(page.tiers.find((t) => t.id === tier.id)?.bundles).toEqual([{ periods: 6, percent: 15, total: '204.00', saving: '36.00' }]);
    expect(page.tiers.find((t) => t.id === bare.id)?.bundles).toBeUndefined();
  });

  it("a fan sees the bundles' totals and savings, confirms the total, is charged once for 3 months; a double press is one charge", async () => {
    const { creator, tier, asCreator } = await creatorWithBundle();
    // an offer for new fans lowers a single first period, never a bundle (they do not stack)
    await asCreator.trpc.offers.create.mutate({ tierId: tier.id, audience: 'new', percent: 25, startsAt: T0, endsAt: new Date(T0.getTime() + 30 * DAY_MS) });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const page = await asFan.trpc.subscriptions.subscribePage.query({ username: creator.username });
    expect(page.tiers[0]).toMatchObject({
      discountedPrice: '40.00',
      offer: { price: '30.00' },
      bundles: [
        { periods: 3, percent: 10, total: '108.00', saving: '12.00' },
        { periods: 12, percent: 30, total: '336.00', saving: '144.00' },
      ],
    });
    // a length the creator does not offer, or the single period's price confirmed: refused, nothing charged
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '216.00', bundlePeriods: 6 }), 'NOT_FOUND');
    await expectTrpcError(
      asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '30.00', bundlePeriods: 3 }),
      'CONFLICT',
      'The price is now R108.00. Nothing was charged: check the new price and confirm again.',
    );
    expect(await payments(fan.id)).toEqual([]);
    const key = randomUUID();
    const [a, b] = await Promise.all([1, 2].map(() => asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '108.00', bundlePeriods: 3 })));
    expect(a).toEqual(b);
    // a retry later with the same key answers the same, still one charge
    expect(await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '108.00', bundlePeriods: 3 })).toEqual(a);
    const paid = await payments(fan.id);
    expect(paid).toMatchObject([{ amount: '108.00', status: 'succeeded', description: expect.stringMatching(/ — Gold — 3 months$/) }]);
    // the ledger: the one payment, split into the fee and the creator's earning as any charge
    const split = await paymentShares(app.deps.db, paid[0]!.id);
    expect(split.platform + split.creator!).toBe(10800);
    expect(split.lines.map((l) => l.account).sort()).toEqual(['creator_pending', 'platform_revenue', 'provider_cash']);
    // Jan 31 + 3 calendar months = Apr 30 (not three single months' Apr 28)
    const sub = await subscriptionOf(fan.id);
    expect(sub).toMatchObject({ bundle_periods: 3, price: '108.00', current_period_end: addCalendarMonths(T0, 3) });
    expect(sub.current_period_end).toEqual(new Date(Date.UTC(T0.getUTCFullYear(), 3, 30, 12)));
    const [mine] = await asFan.trpc.subscriptions.mine.query();
    expect(mine).toMatchObject({ bundlePeriods: 3, tier: { discountedPrice: '108.00' }, currentPeriodEnd: sub.current_period_end, status: 'active' });
    // subscribed: another bundle is refused, nothing charged
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '336.00', bundlePeriods: 12 }), 'CONFLICT');
    expect(await payments(fan.id)).toHaveLength(1);
  });

  it('at its end the bundle is reminded, then renews as the same bundle, charged once however often the job runs', async () => {
    const { tier, asCreator } = await creatorWithBundle();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '108.00', bundlePeriods: 3 });
    const first = await subscriptionOf(fan.id);
    const deps = { db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY };
    // one month in: nothing due (a single month would renew here)
    clock.set(addCalendarMonths(T0, 1));
    const monthIn = await runBillingMaintenance(deps);
    expect(monthIn.renewed).toBe(0);
    expect(monthIn.reminders.filter((r) => r.subscriptionId === first.id)).toEqual([]);
    // a week before the end: reminded once, by mail, with the bundle's amount
    clock.set(new Date(first.current_period_end.getTime() - 6 * DAY_MS));
    expect((await billingMaintenance({ ...app.deps, clock })).reminders).toBeGreaterThanOrEqual(1);
    expect((await runBillingMaintenance(deps)).reminders.filter((r) => r.subscriptionId === first.id)).toHaveLength(0);
    const reminders = async () => (await app.outbox()).filter((m) => m.to === fan.email && m.subject.includes('bundle renews'));
    await expect.poll(async () => (await reminders()).length, { timeout: 15_000 }).toBe(1);
    expect((await reminders())[0]!.text).toContain('Your 3-month bundle');
    expect((await reminders())[0]!.text).toContain('for R108.00, for another 3 months');
    // the creator raises the bundle's discount meanwhile: the renewal gets the lower price
    await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [{ periods: 3, percent: 20 }] });
    clock.set(first.current_period_end);
    await Promise.all([runBillingMaintenance(deps), runBillingMaintenance(deps)]);
    await runBillingMaintenance(deps);
    expect((await payments(fan.id)).map((p) => [p.amount, p.status])).toEqual([
      ['108.00', 'succeeded'],
      ['96.00', 'succeeded'],
    ]);
    const renewed = await subscriptionOf(fan.id);
    expect(renewed).toMatchObject({ bundle_periods: 3, price: '96.00', current_period_start: first.current_period_end, current_period_end: addCalendarMonths(first.current_period_end, 3) });
    // the creator drops the bundle: the next renewal keeps the agreed R96 (3 full months would be R120)
    await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [] });
    clock.set(renewed.current_period_end);
    await runBillingMaintenance(deps);
    expect((await payments(fan.id)).map((p) => p.amount)).toEqual(['108.00', '96.00', '96.00']);
    expect(await subscriptionOf(fan.id)).toMatchObject({ bundle_periods: 3, current_period_end: addCalendarMonths(renewed.current_period_end, 3) });
  });

  it('a bundle the creator removed cannot be bought, nor a length that is no bundle', async () => {
    const { tier, asCreator } = await creatorWithBundle();
    await asCreator.trpc.bundles.set.mutate({ tierId: tier.id, bundles: [] });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(
      asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '108.00', bundlePeriods: 3 }),
      'NOT_FOUND',
      'This bundle is no longer offered. Nothing was charged: choose again.',
    );
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '108.00', bundlePeriods: 5 as 3 }), 'BAD_REQUEST');
    expect(await payments(fan.id)).toEqual([]);
  });
});
