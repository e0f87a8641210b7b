import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BILLING_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { makePost, makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { socketPool } from '../../../tests/helpers/sockets';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

async function creatorWithTier(price = '50.00', discountPercentage: number | null = 20) {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price, paymentInterval: 'weekly', discountPercentage });
  return { creator, tier };
}
const count = async (table: 'subscriptions' | 'payments' | 'subscribers', userColumn: 'subscriber_id' | 'user_id', userId: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(userColumn)} = ${userId}`.execute(app.deps.db)).rows[0]!.n);

describe('subscriptions.subscribePage', () => {
  it('shows the creator, live tiers with the discounted price, and what a subscription unlocks by kind', async () => {
    const { creator, tier } = await creatorWithTier();
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true, kind: 'image' });
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true, kind: 'image' });
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true, kind: 'video' });
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true, kind: 'pdf' });
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: false, kind: 'audio' });
    await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true, kind: 'audio', status: 'draft' });
    const page = await app.client().trpc.subscriptions.subscribePage.query({ username: creator.username });
    expect(page.tiers).toEqual([
      { id: tier.id, name: 'Gold', description: null, price: '50.00', paymentInterval: 'weekly', discountPercentage: 20, discountedPrice: '40.00' },
    ]);
    expect(page.premiumCounts).toEqual({ image: 2, video: 1, audio: 0, pdf: 1, document: 0, total: 4 });
    expect(page.viewer).toEqual({ signedIn: false, isOwner: false, subscription: null });
    expect(page.provider).toBe('builtin');
  });

  it("answers 'Creator not found' for unknown, hidden, private and non-creator profiles", async () => {
    const fan = await makeUser(app.deps.db);
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const priv = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    for (const username of ['nobody-here', fan.username, hidden.username, priv.username]) {
      await expectTrpcError(app.client().trpc.subscriptions.subscribePage.query({ username }), 'NOT_FOUND', PROFILE_TEXTS.creatorNotFound);
    }
  });
});

describe('subscriptions.subscribe', () => {
  it('20 identical parallel requests make one subscription and one payment; another key is told "already subscribed"', async () => {
    const { creator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const socket = await sockets.open(app, fan);
    const live = new Promise((resolve) => socket.once('entitlement:changed', resolve));
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '40.00' })));
    expect(new Set(results.map((r) => (r.kind === 'subscribed' ? r.subscriptionId : r.kind))).size).toBe(1);
    expect(results[0]).toMatchObject({ kind: 'subscribed', creatorUsername: creator.username });
    expect(await live).toEqual({ subject: { kind: 'creator', creatorId: creator.id }, active: true });
    expect(await count('subscriptions', 'subscriber_id', fan.id)).toBe(1);
    expect(await count('subscribers', 'subscriber_id', fan.id)).toBe(1);
    const payments = await asFan.trpc.payments.history.query();
    expect(payments).toEqual([
      expect.objectContaining({ amount: '40.00', currency: 'ZAR', status: 'succeeded', provider: 'builtin', description: expect.stringContaining('Gold') }),
    ]);
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }), 'CONFLICT', BILLING_TEXTS.alreadySubscribed);
    expect(await count('payments', 'user_id', fan.id)).toBe(1);

    // the profile shows Subscribed, and the creator's subscriber count reads the same truth
    const profile = await asFan.trpc.profiles.byUsername.query({ username: creator.username });
    expect(profile.viewer.isSubscribed).toBe(true);
    expect(profile.subscriberCount).toBe(1);
    // a receipt mail was sent (activity mail on by default)
    const mails = await app.outbox();
    expect(mails.filter((m) => m.to === fan.email && m.subject.includes('R40.00'))).toHaveLength(1);
  });

  it('charges only the amount the fan confirmed: a price changed under the fan is refused and nothing is written (issue 22 item 7)', async () => {
    const { creator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    // the fan saw R40.00 (R50 less 20%); the creator raises the price before the fan presses Pay
    await (await clientAs(app, creator.id)).trpc.tiers.update.mutate({ id: tier.id, name: 'Gold', price: '60', paymentInterval: 'weekly', discountPercentage: 20 });
    const key = randomUUID();
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '40.00' }), 'CONFLICT', BILLING_TEXTS.priceChanged('R48.00'));
    expect(await count('payments', 'user_id', fan.id)).toBe(0);
    expect(await count('subscriptions', 'subscriber_id', fan.id)).toBe(0);
    // no amount at all is no confirmation
    await expectTrpcError(
      asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID() } as unknown as { tierId: string; idempotencyKey: string; confirmedAmount: string }),
      'BAD_REQUEST',
      BILLING_TEXTS.confirmedAmountMissing,
    );
    // confirming the new price ('48' reads as R48.00) goes through, at that price
    expect(await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '48' })).toMatchObject({ kind: 'subscribed' });
    expect((await asFan.trpc.payments.history.query()).map((p) => p.amount)).toEqual(['48.00']);

    // Premium alike: the plan costs R150.00, a fan who confirmed R100.00 is not charged
    const asOther = await clientAs(app, (await makeUser(app.deps.db)).id);
    const premium = await asOther.trpc.subscriptions.premiumTier.query({});
    await expectTrpcError(
      asOther.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: randomUUID(), confirmedAmount: '100.00' }),
      'CONFLICT',
      BILLING_TEXTS.priceChanged('R150.00'),
    );
    expect(await asOther.trpc.payments.history.query()).toEqual([]);
  });

  it('two different keys at once still make one subscription', async () => {
    const { tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const settled = await Promise.allSettled(
      Array.from({ length: 5 }, () => asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' })),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(await count('subscriptions', 'subscriber_id', fan.id)).toBe(1);
    expect(await count('payments', 'user_id', fan.id)).toBe(1);
  });

  it('refuses visitors, self-subscription, unknown, archived and Premium tier ids', async () => {
    const { creator, tier } = await creatorWithTier();
    await expectTrpcError(
      app.client().trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }),
      'UNAUTHORIZED',
      BILLING_TEXTS.signInToSubscribe,
    );
    const asCreator = await clientAs(app, creator.id);
    await expectTrpcError(asCreator.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }), 'FORBIDDEN', BILLING_TEXTS.selfSubscribe);
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const premium = await app.client().trpc.subscriptions.premiumTier.query({});
    for (const tierId of [randomUUID(), premium.id]) {
      await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    }
    // a creator who went private or hidden cannot be subscribed to by tier id either
    const goneTier = (await creatorWithTier()).tier;
    await app.deps.db.updateTable('privacy_settings').set({ profile_visibility: 'hidden' }).where('user_id', '=', (await app.deps.db.selectFrom('subscription_tiers').select('creator_id').where('id', '=', goneTier.id).executeTakeFirstOrThrow()).creator_id!).execute();
    await expectTrpcError(asFan.trpc.subscriptions.subscribe.mutate({ tierId: goneTier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    expect(await count('subscriptions', 'subscriber_id', creator.id)).toBe(0);
    expect(await count('subscriptions', 'subscriber_id', fan.id)).toBe(0);
  });

  it('another tier of the same creator replaces the current one at the period end, without a charge now', async () => {
    const { creator, tier } = await creatorWithTier();
    const silver = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Silver', price: '20', paymentInterval: 'weekly' });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const first = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    const change = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: silver.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' });
    expect(change).toMatchObject({ kind: 'tier-change-scheduled', tierName: 'Silver' });
    expect(first.kind === 'subscribed' && change.kind === 'tier-change-scheduled' && change.effectiveAt.getTime()).toBe(first.kind === 'subscribed' && first.currentPeriodEnd.getTime());
    expect(await count('payments', 'user_id', fan.id)).toBe(1);
    expect((await asFan.trpc.subscriptions.mine.query())[0]).toMatchObject({ tier: { id: tier.id }, nextTier: { id: silver.id, name: 'Silver' } });
  });
});

describe('cancel, resume and payments with other users’ ids', () => {
  it('only the owner cancels or resumes; payments.history shows only the caller’s rows', async () => {
    const { creator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const asOther = await clientAs(app, other.id);
    const result = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    if (result.kind !== 'subscribed') throw new Error('expected a subscription');
    const id = result.subscriptionId;

    await expectTrpcError(asOther.trpc.subscriptions.cancel.mutate({ id }), 'NOT_FOUND', BILLING_TEXTS.subscriptionNotFound);
    await expectTrpcError((await clientAs(app, creator.id)).trpc.subscriptions.cancel.mutate({ id }), 'NOT_FOUND', BILLING_TEXTS.subscriptionNotFound);
    expect(await asOther.trpc.payments.history.query()).toEqual([]);
    expect(await asOther.trpc.subscriptions.mine.query()).toEqual([]);
    await expectTrpcError(app.client().trpc.payments.history.query(), 'UNAUTHORIZED');

    const canceled = await asFan.trpc.subscriptions.cancel.mutate({ id });
    expect(canceled).toMatchObject({ status: 'canceling', cancelAtPeriodEnd: true });
    await expectTrpcError(asOther.trpc.subscriptions.resume.mutate({ id }), 'NOT_FOUND', BILLING_TEXTS.subscriptionNotFound);
    expect((await asFan.trpc.subscriptions.mine.query())[0]!.cancelAtPeriodEnd).toBe(true);
    // still entitled until the period end
    expect((await asFan.trpc.profiles.byUsername.query({ username: creator.username })).viewer.isSubscribed).toBe(true);
    expect(await asFan.trpc.subscriptions.resume.mutate({ id })).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });
});

describe('Premium', () => {
  it('upgrades for 30 days, sets is_premium, refuses a second upgrade and creator tier ids', async () => {
    const { tier } = await creatorWithTier();
    const user = await makeUser(app.deps.db, { isCreator: true });
    const asUser = await clientAs(app, user.id);
    const premium = await asUser.trpc.subscriptions.premiumTier.query({});
    expect(premium).toMatchObject({ name: 'Premium', price: '150.00', paymentInterval: 'monthly', periodDays: 30 });
    expect(await asUser.trpc.subscriptions.premiumTier.query({ tierId: premium.id })).toEqual(premium);
    await expectTrpcError(asUser.trpc.subscriptions.premiumTier.query({ tierId: tier.id }), 'NOT_FOUND', BILLING_TEXTS.premiumTierMissing);
    await expectTrpcError(
      asUser.trpc.subscriptions.upgradePremium.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '150.00' }),
      'NOT_FOUND',
      BILLING_TEXTS.premiumTierMissing,
    );
    const before = Date.now();
    const result = await asUser.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: randomUUID(), confirmedAmount: '150.00' });
    expect(result).toMatchObject({ kind: 'subscribed', username: user.username });
    if (result.kind !== 'subscribed') throw new Error('expected a subscription');
    expect(Math.round((result.currentPeriodEnd.getTime() - before) / 86_400_000)).toBe(30);
    const profile = await app.deps.db.selectFrom('profiles').select('is_premium').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(profile.is_premium).toBe(true);
    await expectTrpcError(asUser.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: randomUUID(), confirmedAmount: '150.00' }), 'CONFLICT', BILLING_TEXTS.alreadyPremium);
    // the upgrade card is gone and links go past the free limit of 5 (profiles read is_premium)
    const own = await asUser.trpc.profiles.byUsername.query({ username: user.username });
    expect(own.showUpgradeCard).toBe(false);
    for (let i = 0; i < 7; i++) await asUser.trpc.profiles.addLink.mutate({ title: `Link ${i}`, url: `https://example.com/${i}` });
    expect((await asUser.trpc.profiles.byUsername.query({ username: user.username })).customLinks).toHaveLength(7);
    // a free creator keeps the limit
    const free = await clientAs(app, (await makeUser(app.deps.db, { isCreator: true })).id);
    for (let i = 0; i < 5; i++) await free.trpc.profiles.addLink.mutate({ title: `Link ${i}`, url: `https://example.com/${i}` });
    await expectTrpcError(free.trpc.profiles.addLink.mutate({ title: 'Six', url: 'https://example.com/6' }), 'FORBIDDEN');
    expect((await asUser.trpc.payments.history.query())[0]).toMatchObject({ amount: '150.00', description: 'Premium' });
  });

  it('subscriber counts of a creator include subscriptions made by the factory too (one truth)', async () => {
    const { creator, tier } = await creatorWithTier();
    const fans = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    for (const fan of fans) await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id, tierId: tier.id });
    const page = await (await clientAs(app, creator.id)).trpc.creatorStats.subscribers.query({});
    expect(page.items.map((i) => i.fan.id).sort()).toEqual(fans.map((f) => f.id).sort());
  });
});

describe('Premium benefits', () => {
  it('puts the upgraded creator ahead in the featured listing', async () => {
    // the longest-standing creator leads until the newer one takes Premium
    const older = await makeUser(app.deps.db, { isCreator: true });
    const upgrader = await makeUser(app.deps.db, { isCreator: true });
    const featured = async () => (await app.client().trpc.creators.featured.query()).map((c) => c.id);
    expect(await featured()).toEqual([older.id, upgrader.id]);
    const asUpgrader = await clientAs(app, upgrader.id);
    const premium = await asUpgrader.trpc.subscriptions.premiumTier.query({});
    await asUpgrader.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: randomUUID(), confirmedAmount: '150.00' });
    expect(await featured()).toEqual([upgrader.id, older.id]);
  });
});

describe('POST /webhooks/stripe without Stripe settings', () => {
  it('is not there (404): the built-in provider takes no webhooks', async () => {
    const res = await fetch(`${app.url}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"evt_1"}' });
    expect(res.status).toBe(404);
    expect(await app.deps.db.selectFrom('billing_events').select('event_id').execute()).toEqual([]);
  });
});
