import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../../common/texts';
import { makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';
import { insertPayment } from '../../../domain/billing/billing.queries';
import { DEFAULT_EARNINGS_POLICY } from '../../../domain/earnings/policy';

const app = useFileServer({ emptyUsers: true });

describe('creatorStats', () => {
  it('earnings from the ledger: this month, last month, 12 weekly totals, per-tier active counts; only the caller’s own', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const leo = await makeUser(app.deps.db, { isCreator: true });
    const asAva = await clientAs(app, ava.id);
    const gold = await asAva.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'weekly', discountPercentage: 20 });
    const fans = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    for (const fan of fans) await (await clientAs(app, fan.id)).trpc.subscriptions.subscribe.mutate({ tierId: gold.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    // an older payment, last month, and one of another creator that must not count
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const pay = (p: { creatorId: string; tierId: string | null; amountCents: number; status: 'succeeded' | 'failed'; at: Date }) =>
      app.deps.db.transaction().execute((trx) =>
        insertPayment(trx, {
          userId: fans[0]!.id, tierId: p.tierId, creatorId: p.creatorId, subscriptionId: null, description: 'Gold', idempotencyKey: randomUUID(), amountCents: p.amountCents,
          provider: 'builtin', providerRef: null, status: p.status, createdAt: p.at, earnings: DEFAULT_EARNINGS_POLICY,
        }),
      );
    await pay({ creatorId: ava.id, tierId: gold.id, amountCents: 40_00, status: 'succeeded', at: lastMonth });
    await pay({ creatorId: ava.id, tierId: gold.id, amountCents: 40_00, status: 'failed', at: now });
    await pay({ creatorId: leo.id, tierId: null, amountCents: 99_00, status: 'succeeded', at: now });
    // net earnings, the Earnings screen's definition: the creator's share after the 20% fee
    const earnings = await asAva.trpc.creatorStats.earnings.query();
    expect(earnings.thisMonth).toBe('64.00');
    expect(earnings.lastMonth).toBe('32.00');
    expect(earnings.weekly).toHaveLength(12);
    expect(earnings.weekly.at(-1)!.total).toBe('64.00');
    expect(earnings.weekly.at(-1)!.weekStart.getUTCDay()).toBe(1);
    expect(earnings.weekly.reduce((sum, w) => sum + Number(w.total), 0)).toBeGreaterThanOrEqual(64);
    expect(earnings.tiers).toEqual([{ tierId: gold.id, name: 'Gold', activeSubscribers: 2, archived: false }]);

    const leoEarnings = await (await clientAs(app, leo.id)).trpc.creatorStats.earnings.query();
    expect(leoEarnings.thisMonth).toBe('79.20');
    expect(leoEarnings.tiers).toEqual([]);
  });

  it('lists the caller’s active subscribers newest first, 20 a page, and refuses fans and visitors', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const asAva = await clientAs(app, ava.id);
    const tier = await asAva.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly' });
    const fans = [];
    for (let i = 0; i < 23; i++) {
      const fan = await makeUser(app.deps.db);
      await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: ava.id, tierId: tier.id });
      fans.push(fan);
    }
    const lapsed = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: lapsed.id, creatorId: ava.id, tierId: tier.id, periodEnd: new Date(Date.now() - 1000) });
    const first = await asAva.trpc.creatorStats.subscribers.query({});
    expect(first.items).toHaveLength(20);
    expect(first.items[0]).toMatchObject({ tierName: 'Gold', fan: { id: fans[22]!.id }, cancelAtPeriodEnd: false });
    const second = await asAva.trpc.creatorStats.subscribers.query({ cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((i) => i.fan.id)).toEqual(fans.map((f) => f.id).reverse());

    const fan = fans[0]!;
    await expectTrpcError((await clientAs(app, fan.id)).trpc.creatorStats.subscribers.query({}), 'FORBIDDEN', BILLING_TEXTS.tierCreatorsOnly);
    await expectTrpcError((await clientAs(app, fan.id)).trpc.creatorStats.earnings.query(), 'FORBIDDEN', BILLING_TEXTS.tierCreatorsOnly);
    await expectTrpcError(app.client().trpc.creatorStats.earnings.query(), 'UNAUTHORIZED', BILLING_TEXTS.tierSignIn);
    const other = await makeUser(app.deps.db, { isCreator: true });
    expect((await (await clientAs(app, other.id)).trpc.creatorStats.subscribers.query({})).items).toEqual([]);
  });
});
