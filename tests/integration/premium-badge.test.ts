import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import { fixedClock } from '../../core/clock';
import { DAY_MS } from '../../domain/billing/periods';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makePost, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 22 item 8: the upgrade card promises a verified badge with Premium. While Premium is active,
 * every answer that names the user carries `isVerified` (the profile, the creator cards, their
 * posts in the feed, the signed-in user); when it lapses the badge goes, unless the platform
 * verified them.
 */
const app = useFileServer({ emptyUsers: true });

describe('the verified badge follows Premium', () => {
  it('appears everywhere the user is shown while Premium is active, and goes when it lapses', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const verified = await makeUser(app.deps.db, { isCreator: true, isVerified: true });
    for (const c of [creator, verified]) await makePost(app.deps.db, null, { creatorId: c.id, kind: null, text: `hello from ${c.username}` });
    const asCreator = await clientAs(app, creator.id);
    const viewer = app.client();

    const badges = async () => {
      const profile = await viewer.trpc.profiles.byUsername.query({ username: creator.username });
      const featured = (await viewer.trpc.creators.featured.query()).find((c) => c.id === creator.id);
      const feed = (await asCreator.trpc.posts.feed.query({ limit: 20 })).items.find((p) => p.creator.id === creator.id);
      const me = await asCreator.trpc.auth.me.query();
      return { profile: profile.isVerified, card: featured?.isVerified, post: feed?.creator.isVerified, me: me?.isVerified };
    };
    // before: no badge anywhere (the signed-in user's answer is now in this copy's session cache)
    expect(await badges()).toEqual({ profile: false, card: false, post: false, me: false });

    const clock = fixedClock(new Date());
    const premium = await asCreator.trpc.subscriptions.premiumTier.query({});
    await asCreator.trpc.subscriptions.upgradePremium.mutate({ tierId: premium.id, idempotencyKey: randomUUID(), confirmedAmount: premium.discountedPrice });
    expect(await badges()).toEqual({ profile: true, card: true, post: true, me: true });

    // cancelled, it lasts to the end of its 30 days; then the job ends it and the badge goes
    const [mine] = await asCreator.trpc.subscriptions.mine.query();
    await asCreator.trpc.subscriptions.cancel.mutate({ id: mine!.id });
    expect((await badges()).profile).toBe(true);
    clock.set(new Date(clock.now().getTime() + 31 * DAY_MS));
    // the job's effects make the session caches forget the user, so auth.me follows at once
    expect(await billingMaintenance({ ...app.deps, clock, payments: builtinProvider })).toMatchObject({ expired: 1 });
    expect(await badges()).toEqual({ profile: false, card: false, post: false, me: false });

    // a user the platform verified keeps the badge without Premium
    expect((await viewer.trpc.profiles.byUsername.query({ username: verified.username })).isVerified).toBe(true);
  });

  it('marks exactly the Premium and verified authors in a page of the feed', async () => {
    const asViewer = await clientAs(app, (await makeUser(app.deps.db)).id);
    const kinds = [{ isPremium: true }, { isVerified: true }, {}, { isPremium: true }, {}, { isPremium: true, isVerified: true }];
    const authors = [];
    for (const [i, kind] of kinds.entries()) {
      const author = await makeUser(app.deps.db, { isCreator: true, ...kind });
      await makePost(app.deps.db, null, { creatorId: author.id, kind: null, text: `page post ${i}` });
      authors.push({ id: author.id, badge: Boolean(kind.isPremium || kind.isVerified) });
    }
    const feed = await asViewer.trpc.posts.feed.query({ limit: 20 });
    const shown = new Map(feed.items.map((p) => [p.creator.id, p.creator.isVerified]));
    expect(authors.map((a) => shown.get(a.id))).toEqual(authors.map((a) => a.badge));
  });
});
