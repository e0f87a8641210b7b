import { describe, expect, it } from 'vitest';
import { makePost, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 47 items 2 and 5: what a new creator and their fans are told. The profile answer says
 * whether the creator has a tier a fan can choose (no Subscribe without one); the creator's first
 * steps (verify, payout account, first tier, first post) are read from what they did; and
 * Earnings names no next payout day while there is no payout account with payouts enabled.
 */
const app = useTestServer();

describe("a new creator's first week", () => {
  it('the profile answer says whether the creator has a tier, to fans, visitors and the owner alike', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const asFan = await clientAs(app, (await makeUser(app.deps.db)).id);
    const asVisitor = app.client();
    for (const as of [asFan, asVisitor, asCreator]) {
      expect((await as.trpc.profiles.byUsername.query({ username: creator.username })).hasTier).toBe(false);
    }
    // the subscribe page says so: no tiers (the page shows 'No subscription tiers available yet.')
    expect((await asFan.trpc.subscriptions.subscribePage.query({ username: creator.username })).tiers).toEqual([]);
    await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 0 });
    for (const as of [asFan, asVisitor, asCreator]) {
      expect((await as.trpc.profiles.byUsername.query({ username: creator.username })).hasTier).toBe(true);
    }
    // a fan's profile has no tier either
    const fan = await makeUser(app.deps.db);
    expect((await asVisitor.trpc.profiles.byUsername.query({ username: fan.username })).hasTier).toBe(false);
  });

  it("the first steps follow what the creator did: verified, payouts enabled, a tier, a published post", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true, identityVerified: false });
    const as = await clientAs(app, creator.id);
    expect(await as.trpc.creators.firstSteps.query()).toEqual({ verify: false, payouts: false, tier: false, post: false });
    await makePost(app.deps.db, null, { creatorId: creator.id, status: 'draft' });
    expect((await as.trpc.creators.firstSteps.query()).post).toBe(false);
    await makePost(app.deps.db, null, { creatorId: creator.id, status: 'published' });
    await as.trpc.earnings.setUpPayouts.mutate();
    expect(await as.trpc.creators.firstSteps.query()).toEqual({ verify: false, payouts: true, tier: false, post: true });
    // the built-in provider's test verification is the verify step, and lets the creator sell a tier
    await as.trpc.settings.verifyIdentityForTesting.mutate();
    expect((await as.trpc.creators.firstSteps.query()).verify).toBe(true);
    await as.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 0 });
    expect(await as.trpc.creators.firstSteps.query()).toEqual({ verify: true, payouts: true, tier: true, post: true });
  });

  it('Earnings names no next payout day without a payout account; one once payouts are enabled', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const as = await clientAs(app, creator.id);
    const before = await as.trpc.earnings.summary.query();
    expect(before).toMatchObject({ nextPayoutAt: null, available: '0.00', account: { status: null } });
    await as.trpc.earnings.setUpPayouts.mutate();
    const after = await as.trpc.earnings.summary.query();
    expect(after.account.status).toBe('enabled');
    expect(new Date(after.nextPayoutAt!).getTime()).toBeGreaterThan(Date.now() - 86_400_000);
  });
});
