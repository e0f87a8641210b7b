import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock';
import { builtinProvider } from '../../core/payments/builtin';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { storedRand } from '../helpers/money';

/**
 * Offers (issue 27 item 5): N% off the first period for new fans or for expired subscribers, from
 * a start to an end. The server prices the first period for this fan (the client's confirmed
 * amount must be that price), renewals charge the tier's price.
 */
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const clock = fixedClock(T0);
const app = useTestServer({ clock });

async function creatorWithOffer(audience: 'new' | 'expired', percent = 25) {
  clock.set(T0);
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'weekly', discountPercentage: 20 });
  const offer = await asCreator.trpc.offers.create.mutate({ tierId: tier.id, audience, percent, startsAt: T0, endsAt: new Date(T0.getTime() + 30 * DAY_MS) });
  return { creator, asCreator, tier, offer };
}
const amounts = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select('amount_cents').where('user_id', '=', userId).where('status', '=', 'succeeded').orderBy('created_at').execute()).map((p) =>
    storedRand(p.amount_cents),
  );

describe('offers', () => {
  it("a new fan sees and pays the offer's first-period price; the server refuses the list price; renewals charge the tier's price", async () => {
    const { creator, tier } = await creatorWithOffer('new');
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const page = await asFan.trpc.subscriptions.subscribePage.query({ username: creator.username });
    expect(page.tiers[0]).toMatchObject({ discountedPrice: '40.00', offer: { percent: 25, price: '30.00', audience: 'new' } });
    // the client confirmed the list price: refused, nothing charged
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }), 'CONFLICT', 'The price is now R30.00. Nothing was charged: check the new price and confirm again.');
    expect(await amounts(fan.id)).toEqual([]);
    // a double press at the offer's price: one charge
    const key = randomUUID();
    const [a, b] = await Promise.all([1, 2].map(() => asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '30.00' })));
    expect(a).toEqual(b);
    expect(await amounts(fan.id)).toEqual(['30.00']);
    // the renewal charges the tier's price, not the offer's
    clock.set(new Date(T0.getTime() + 7 * DAY_MS));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 1 });
    expect(await amounts(fan.id)).toEqual(['30.00', '40.00']);
  });

  it('an offer for expired subscribers reaches them only: not new fans, not active subscribers; not before its start or after its end', async () => {
    const { creator, tier, asCreator } = await creatorWithOffer('expired', 50);
    const fresh = await makeUser(app.deps.db);
    const returning = await makeUser(app.deps.db);
    const asFresh = await clientAs(app, fresh.id);
    const asReturning = await clientAs(app, returning.id);
    expect((await asFresh.trpc.subscriptions.subscribePage.query({ username: creator.username })).tiers[0]!.offer).toBeUndefined();
    const { subscriptionId } = (await asReturning.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' })) as { subscriptionId: string };
    // subscribed now: no offer
    expect((await asReturning.trpc.subscriptions.subscribePage.query({ username: creator.username })).tiers[0]!.offer).toBeUndefined();
    await asReturning.trpc.subscriptions.cancel.mutate({ id: subscriptionId });
    clock.set(new Date(T0.getTime() + 7 * DAY_MS + 1000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ expired: 1 });
    expect((await asReturning.trpc.subscriptions.subscribePage.query({ username: creator.username })).tiers[0]!.offer).toMatchObject({ percent: 50, price: '20.00' });
    await asReturning.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' });
    expect(await amounts(returning.id)).toEqual(['40.00', '20.00']);
    // after its end nobody gets it; a new fan pays the list price
    clock.set(new Date(T0.getTime() + 31 * DAY_MS));
    await asFresh.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    // the creator ends an offer; another creator cannot end or see it
    clock.set(T0);
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    const [mine] = await asCreator.trpc.offers.listMine.query();
    await expectTrpcError(asOther.trpc.offers.disable.mutate({ id: mine!.id }), 'NOT_FOUND', 'Offer not found');
    expect(await asOther.trpc.offers.listMine.query()).toEqual([]);
    await expectTrpcError(asOther.trpc.offers.create.mutate({ tierId: tier.id, audience: 'new', percent: 10, startsAt: T0, endsAt: new Date(T0.getTime() + DAY_MS) }), 'NOT_FOUND');
    expect((await asCreator.trpc.offers.disable.mutate({ id: mine!.id })).disabledAt).not.toBeNull();
    await expectTrpcError(asCreator.trpc.offers.create.mutate({ tierId: tier.id, audience: 'new', percent: 95, startsAt: T0, endsAt: new Date(T0.getTime() + DAY_MS) }), 'BAD_REQUEST');
  });

  it('issue 47 item 3: the form\'s default "All tiers" (an empty tier) makes an offer for every tier; an unknown tier is still not found', async () => {
    clock.set(T0);
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'weekly', discountPercentage: 0 });
    const window = { audience: 'new' as const, percent: 20, startsAt: T0, endsAt: new Date(T0.getTime() + 14 * DAY_MS) };
    const offer = await asCreator.trpc.offers.create.mutate({ tierId: '', ...window });
    expect(offer).toMatchObject({ tierId: null, tierName: null, percent: 20 });
    const page = await (await clientAs(app, (await makeUser(app.deps.db)).id)).trpc.subscriptions.subscribePage.query({ username: creator.username });
    expect(page.tiers[0]).toMatchObject({ offer: { percent: 20, price: '40.00' } });
    await expectTrpcError(asCreator.trpc.offers.create.mutate({ tierId: randomUUID(), ...window }), 'NOT_FOUND', 'Tier not found');
    await expectTrpcError(asCreator.trpc.offers.create.mutate({ tierId: 'not-a-tier', ...window }), 'NOT_FOUND', 'Subscription tier not found');
  });
});
