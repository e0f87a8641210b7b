import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../common/texts';
import { builtinProvider } from '../../core/payments/builtin';
import { fixedClock } from '../../core/clock';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { purchase } from '../../domain/billing/purchase';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { clockStart } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { storedRand } from '../helpers/money';

/**
 * Issue 22 item 6: no charge nobody agreed to. A subscription renews at the price the fan agreed
 * to (stored on it), or at the tier's price of the day when that is lower: a cut reaches existing
 * fans at their next renewal, a rise only new fans. A tier change is agreed at the new tier's
 * price when the fan asks for it. Prices are at most R100,000.
 */
const app = useFileServer({ emptyUsers: true });
const T0 = clockStart();
const WEEK = 7 * DAY_MS;

async function subscribeAt(clock: ReturnType<typeof fixedClock>, fan: MadeUser, tierId: string) {
  const { result } = await purchase(
    { db: app.deps.db, provider: builtinProvider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
    { userId: fan.id, email: fan.email, username: fan.username, tierId, idempotencyKey: randomUUID(), kind: 'creator' },
  );
  if (result.kind !== 'subscribed') throw new Error(`expected a subscription, got ${result.kind}`);
  return result.subscriptionId;
}

const amountsOf = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select('amount_cents').where('user_id', '=', userId).where('status', '=', 'succeeded').orderBy('created_at').execute()).map(
    (p) => storedRand(p.amount_cents),
  );

describe('renewal prices', () => {
  it('a rise reaches new fans only; a cut reaches everyone at the next renewal and stays theirs', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const gold = { name: 'Gold', paymentInterval: 'weekly' as const, discountPercentage: 20 };
    const tier = await asCreator.trpc.tiers.create.mutate({ ...gold, price: '50' });
    const clock = fixedClock(T0);
    const early = await makeUser(app.deps.db);
    const earlyId = await subscribeAt(clock, early, tier.id);

    // R1 to R99,999: the early fan is not asked to pay it; a new fan is
    await asCreator.trpc.tiers.update.mutate({ ...gold, id: tier.id, price: '99999' });
    const late = await makeUser(app.deps.db);
    await subscribeAt(clock, late, tier.id);
    const asEarly = await clientAs(app, early.id);
    expect((await asEarly.trpc.subscriptions.mine.query())[0]!.tier.discountedPrice).toBe('40.00');

    const run = (at: number) => {
      clock.set(new Date(T0.getTime() + at));
      return runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY });
    };
    expect(await run(WEEK)).toMatchObject({ renewed: 2 });
    expect(await amountsOf(early.id)).toEqual(['40.00', '40.00']);
    expect(await amountsOf(late.id)).toEqual(['79999.20', '79999.20']);

    // a cut below what either agreed: both pay it, and it becomes their price
    await asCreator.trpc.tiers.update.mutate({ ...gold, id: tier.id, price: '30' });
    expect((await asEarly.trpc.subscriptions.mine.query())[0]!.tier.discountedPrice).toBe('24.00');
    expect(await run(2 * WEEK)).toMatchObject({ renewed: 2 });
    expect(await amountsOf(early.id)).toEqual(['40.00', '40.00', '24.00']);
    expect(await amountsOf(late.id)).toEqual(['79999.20', '79999.20', '24.00']);
    expect((await app.deps.db.selectFrom('subscriptions').select('price_cents').where('id', '=', earlyId).executeTakeFirstOrThrow()).price_cents).toBe('2400');

    // the price goes back up: they keep the lower price they renewed at
    await asCreator.trpc.tiers.update.mutate({ ...gold, id: tier.id, price: '50' });
    expect(await run(3 * WEEK)).toMatchObject({ renewed: 2 });
    expect((await amountsOf(early.id)).at(-1)).toBe('24.00');
    expect((await amountsOf(late.id)).at(-1)).toBe('24.00');
  });

  it('a tier change is agreed at the new tier’s price when the fan asks for it', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const gold = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'weekly' });
    const silver = { name: 'Silver', paymentInterval: 'weekly' as const, discountPercentage: null };
    const silverTier = await asCreator.trpc.tiers.create.mutate({ ...silver, price: '20' });
    const clock = fixedClock(T0);
    const fan = await makeUser(app.deps.db);
    const id = await subscribeAt(clock, fan, gold.id);
    const asFan = await clientAs(app, fan.id);
    expect((await asFan.trpc.subscriptions.subscribe.mutate({ tierId: silverTier.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' })).kind).toBe('tier-change-scheduled');

    // raised after the fan asked: the change happens at the price they saw
    await asCreator.trpc.tiers.update.mutate({ ...silver, id: silverTier.id, price: '80' });
    clock.set(new Date(T0.getTime() + WEEK));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 1 });
    expect(await amountsOf(fan.id)).toEqual(['50.00', '20.00']);
    expect(await app.deps.db.selectFrom('subscriptions').select(['tier_id', 'price_cents', 'next_price_cents']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      tier_id: silverTier.id,
      price_cents: '2000',
      next_price_cents: null,
    });
  });
});

describe('the price bound', () => {
  it('a tier costs at most R100,000: more is refused with a clear message, on create and on edit', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const base = { name: 'Gold', paymentInterval: 'monthly' as const, discountPercentage: null };
    const fieldErrors = (error: { data: unknown }) => (error.data as { validation: { fieldErrors: Record<string, string[]> } }).validation.fieldErrors;
    for (const price of ['100000.01', '99999999.99', '1000000']) {
      const error = await expectTrpcError(asCreator.trpc.tiers.create.mutate({ ...base, price }), 'BAD_REQUEST');
      expect(fieldErrors(error).price).toEqual([BILLING_TEXTS.priceTooHigh]);
    }
    const tier = await asCreator.trpc.tiers.create.mutate({ ...base, price: '100000' });
    expect(tier.price).toBe('100000.00');
    const error = await expectTrpcError(asCreator.trpc.tiers.update.mutate({ ...base, id: tier.id, price: '99999999.99' }), 'BAD_REQUEST');
    expect(fieldErrors(error).price).toEqual([BILLING_TEXTS.priceTooHigh]);
    expect(BILLING_TEXTS.priceTooHigh).toBe('Price must be at most R100,000');
  });
});
