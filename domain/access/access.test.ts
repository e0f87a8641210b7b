import { describe, expect, it } from 'vitest';
import { POST_STATUSES, PROFILE_VISIBILITIES, type ProfileVisibility } from '../../common/enums';
import { makePost, makeSubscription, makeUnlock, makeUser } from '../../tests/helpers/factories';
import { useTestDb } from '../../tests/helpers/test-db';
import {
  filterVisiblePostIds,
  isOwnerOnlyProfile,
  loadPostAccess,
  loadViewer,
  ownerOnlyProfileWhere,
  postAccess,
  profileVisibleToAll,
  profileVisibleToAllWhere,
  toFacts,
  viewerOfRows,
  viewerSubscribedColumn,
  viewerUnlockedColumn,
  viewerWithoutEntitlements,
  visiblePostWhere,
} from './access';
import { findPostAccessFacts } from './access.queries';

const t = useTestDb();

describe('the access rule', () => {
  it('decides visibility and media as the spec says', () => {
    const anyone = viewerWithoutEntitlements('u-fan');
    const subscriber = { userId: 'u-sub', entitlements: { creators: new Set(['c1']), posts: new Set<string>() } };
    const owner = viewerWithoutEntitlements('c1');
    const visitor = viewerWithoutEntitlements(null);
    const post = (over: Partial<Parameters<typeof postAccess>[1]> = {}) => ({
      creatorId: 'c1',
      status: 'published' as const,
      isPremium: false,
      creatorVisibility: 'public' as ProfileVisibility | null,
      unlockPriceCents: null as number | null,
      unlockMode: null as 'everyone' | 'non_subscribers' | null,
      ...over,
    });

    expect(postAccess(visitor, post())).toEqual({ visible: true, isOwner: false, canViewMedia: true });
    expect(postAccess(visitor, post({ isPremium: true }))).toEqual({ visible: true, isOwner: false, canViewMedia: false });
    expect(postAccess(anyone, post({ isPremium: true })).canViewMedia).toBe(false);
    expect(postAccess(subscriber, post({ isPremium: true })).canViewMedia).toBe(true);
    expect(postAccess(owner, post({ isPremium: true }))).toEqual({ visible: true, isOwner: true, canViewMedia: true });
    for (const status of ['draft', 'processing', 'failed', 'scheduled'] as const) {
      expect(postAccess(anyone, post({ status })).visible).toBe(false);
      expect(postAccess(subscriber, post({ status })).visible).toBe(false);
      expect(postAccess(owner, post({ status })).visible).toBe(true);
    }
    for (const creatorVisibility of ['private', 'hidden'] as const) {
      expect(postAccess(visitor, post({ creatorVisibility })).visible).toBe(false);
      // even a subscriber: a private profile is the owner's alone
      expect(postAccess(subscriber, post({ creatorVisibility, isPremium: true }))).toEqual({ visible: false, isOwner: false, canViewMedia: false });
      expect(postAccess(owner, post({ creatorVisibility })).visible).toBe(true);
    }
    // friends: the owner and the creator's active subscribers only
    expect(postAccess(visitor, post({ creatorVisibility: 'friends' })).visible).toBe(false);
    expect(postAccess(anyone, post({ creatorVisibility: 'friends' })).visible).toBe(false);
    expect(postAccess(subscriber, post({ creatorVisibility: 'friends' })).visible).toBe(true);
    expect(postAccess(owner, post({ creatorVisibility: 'friends' })).visible).toBe(true);
    expect(postAccess(visitor, post({ creatorVisibility: null })).visible).toBe(true);

    // pay-per-view: the buyer of this post, the owner, and (mode 'non_subscribers') the creator's subscribers
    const buyer = { userId: 'u-buy', entitlements: { creators: new Set<string>(), posts: new Set(['p1']) } };
    const subscribedBuyer = { userId: 'u-both', entitlements: { creators: new Set(['c1']), posts: new Set(['p1']) } };
    const everyone = (over = {}) => ({ ...post({ unlockPriceCents: 5000, unlockMode: 'everyone', ...over }), id: 'p1' });
    const nonSubs = (over = {}) => ({ ...post({ unlockPriceCents: 5000, unlockMode: 'non_subscribers', ...over }), id: 'p1' });
    for (const premium of [false, true]) {
      expect(postAccess(visitor, everyone({ isPremium: premium }))).toEqual({ visible: true, isOwner: false, canViewMedia: false });
      expect(postAccess(anyone, everyone({ isPremium: premium })).canViewMedia).toBe(false);
      // subscribers pay too
      expect(postAccess(subscriber, everyone({ isPremium: premium })).canViewMedia).toBe(false);
      expect(postAccess(buyer, everyone({ isPremium: premium })).canViewMedia).toBe(true);
      expect(postAccess(subscribedBuyer, everyone({ isPremium: premium })).canViewMedia).toBe(true);
      expect(postAccess(owner, everyone({ isPremium: premium })).canViewMedia).toBe(true);
      expect(postAccess(anyone, nonSubs({ isPremium: premium })).canViewMedia).toBe(false);
      expect(postAccess(subscriber, nonSubs({ isPremium: premium })).canViewMedia).toBe(true);
      expect(postAccess(buyer, nonSubs({ isPremium: premium })).canViewMedia).toBe(true);
    }
    // an unlock of another post opens nothing; a bought post of a private profile stays hidden
    expect(postAccess(buyer, { ...everyone(), id: 'p2' }).canViewMedia).toBe(false);
    expect(postAccess(buyer, everyone({ creatorVisibility: 'private' }))).toEqual({ visible: false, isOwner: false, canViewMedia: false });
    // a bought post of a 'friends' profile: visible only to subscribers, whatever was bought
    expect(postAccess(buyer, everyone({ creatorVisibility: 'friends' })).visible).toBe(false);
  });

  it('names the profile rules: owner-only (private, hidden) and visible to all (public, or no settings row)', () => {
    expect(PROFILE_VISIBILITIES.filter(isOwnerOnlyProfile)).toEqual(['private', 'hidden']);
    expect(isOwnerOnlyProfile(null)).toBe(false);
    expect(PROFILE_VISIBILITIES.filter(profileVisibleToAll)).toEqual(['public']);
    expect(profileVisibleToAll(null)).toBe(true);
    // the same answers as the general rule asked for nobody, and for someone without a subscription
    for (const visibility of [...PROFILE_VISIBILITIES, null]) {
      expect(profileVisibleToAll(visibility)).toBe(postAccess(viewerWithoutEntitlements(null), { creatorId: 'c1', status: 'published', isPremium: false, creatorVisibility: visibility, unlockPriceCents: null, unlockMode: null }).visible);
      if (visibility !== 'friends') expect(isOwnerOnlyProfile(visibility)).toBe(!postAccess(viewerWithoutEntitlements('u-fan'), { creatorId: 'c1', status: 'published', isPremium: false, creatorVisibility: visibility, unlockPriceCents: null, unlockMode: null }).visible);
    }
  });

  it('has SQL forms of the profile rules that agree with them on every visibility and a missing row', async () => {
    const db = t.db;
    const users = [];
    for (const visibility of PROFILE_VISIBILITIES) users.push(await makeUser(db, { visibility }));
    const noRow = await makeUser(db);
    await db.deleteFrom('privacy_settings').where('user_id', '=', noRow.id).execute();
    users.push(noRow);
    const rows = await db
      .selectFrom('profiles as pr')
      .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
      .select(['pr.id', 'ps.profile_visibility', ownerOnlyProfileWhere('ps.profile_visibility').as('owner_only'), profileVisibleToAllWhere().as('to_all')])
      .where('pr.id', 'in', users.map((u) => u.id))
      .execute();
    expect(rows).toHaveLength(PROFILE_VISIBILITIES.length + 1);
    for (const row of rows) {
      expect(row.owner_only).toBe(isOwnerOnlyProfile(row.profile_visibility));
      expect(row.to_all).toBe(profileVisibleToAll(row.profile_visibility));
    }
  });

  it('has an SQL form that agrees with it on every status, visibility and viewer', async () => {
    const db = t.db;
    const creators = [];
    for (const visibility of PROFILE_VISIBILITIES) creators.push(await makeUser(db, { isCreator: true, visibility }));
    const noRow = await makeUser(db, { isCreator: true });
    await db.deleteFrom('privacy_settings').where('user_id', '=', noRow.id).execute();
    creators.push(noRow);
    for (const c of creators) {
      for (const status of POST_STATUSES) {
        for (const isPremium of [false, true]) {
          await makePost(db, null, { creatorId: c.id, status, isPremium, kind: null });
          // pay-per-view, subscribers paying too or not
          for (const mode of ['everyone', 'non_subscribers'] as const) await makePost(db, null, { creatorId: c.id, status, isPremium, kind: null, unlock: { priceCents: 2500, mode } });
        }
      }
    }
    const stranger = await makeUser(db);
    // an active subscriber of every creator, and a lapsed one: friends profiles open to the first only
    const fan = await makeUser(db);
    const lapsed = await makeUser(db);
    for (const c of creators) {
      const { tierId } = await makeSubscription(db, { subscriberId: fan.id, creatorId: c.id });
      await makeSubscription(db, { subscriberId: lapsed.id, creatorId: c.id, tierId, periodEnd: new Date(Date.now() - 1000) });
    }
    const facts = await db
      .selectFrom('posts')
      .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
      .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'posts.unlock_price_cents', 'posts.unlock_mode', 'ps.profile_visibility'])
      .execute();
    expect(facts).toHaveLength(5 * POST_STATUSES.length * 2 * 3);
    // a buyer of every other pay-per-view post (and a revoked unlock of the rest), and the subscribed fan buys some too
    const buyer = await makeUser(db);
    const ppv = facts.filter((f) => f.unlock_price_cents !== null);
    for (const [i, f] of ppv.entries()) {
      await makeUnlock(db, { fanId: buyer.id, postId: f.id, revoked: i % 2 === 1 });
      if (i % 3 === 0) await makeUnlock(db, { fanId: fan.id, postId: f.id });
    }

    const friendsPosts = facts.filter((f) => f.profile_visibility === 'friends' && f.status === 'published').map((f) => f.id);
    for (const viewerId of [null, stranger.id, fan.id, lapsed.id, buyer.id, ...creators.map((c) => c.id)]) {
      const inSql = await db
        .selectFrom('posts')
        .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
        .select('posts.id')
        .where(visiblePostWhere(viewerId))
        .execute();
      const viewer = await loadViewer(db, viewerId, facts.map(toFacts), { media: false });
      const inJs = facts.filter((row) => postAccess(viewer, toFacts(row)).visible);
      const seesFriends = inJs.some((r) => friendsPosts.includes(r.id));
      expect(seesFriends).toBe(viewerId === fan.id || viewerId === creators[PROFILE_VISIBILITIES.indexOf('friends')]!.id);
      expect(new Set(inSql.map((r) => r.id))).toEqual(new Set(inJs.map((r) => r.id)));
      // and the socket room filter is the same rule
      expect(new Set(await filterVisiblePostIds(db, viewerId, facts.map((f) => f.id)))).toEqual(new Set(inJs.map((r) => r.id)));
      // and a list's own statement reads the same entitlements as loadViewer (media included)
      const withColumn = await db
        .selectFrom('posts')
        .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
        .select([
          'posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'posts.unlock_price_cents', 'posts.unlock_mode', 'ps.profile_visibility',
          viewerSubscribedColumn(viewerId).as('viewer_subscribed'), viewerUnlockedColumn(viewerId).as('viewer_unlocked'),
        ])
        .execute();
      const accessBy = (v: Awaited<ReturnType<typeof loadViewer>>, rows: typeof facts) => Object.fromEntries(rows.map((r) => [r.id, postAccess(v, toFacts(r))]));
      // on a page of all the posts, and on a page without locked posts (friends profiles alone ask then)
      for (const page of [withColumn, withColumn.filter((r) => !r.is_premium && r.unlock_price_cents === null)]) {
        const loaded = await loadViewer(db, viewerId, page.map(toFacts));
        expect(accessBy(viewerOfRows(viewerId, page), page)).toEqual(accessBy(loaded, page));
      }
      // the buyer's media: exactly the visible pay-per-view posts with an unrevoked unlock (non-premium, public, published ones at least)
      if (viewerId === buyer.id) {
        const loaded = await loadViewer(db, viewerId, withColumn.map(toFacts));
        const open = withColumn.filter((r) => r.unlock_price_cents !== null && postAccess(loaded, toFacts(r)).canViewMedia).map((r) => r.id);
        const bought = ppv.filter((_, i) => i % 2 === 0).map((f) => f.id);
        expect(open.every((id) => bought.includes(id))).toBe(true);
        expect(open.length).toBeGreaterThan(0);
      }
      // the subscribed fan sees 'non_subscribers' posts but not 'everyone' ones they did not buy
      if (viewerId === fan.id) {
        const loaded = await loadViewer(db, viewerId, withColumn.map(toFacts));
        const publicPublished = withColumn.filter((r) => r.status === 'published' && r.profile_visibility === 'public' && r.unlock_price_cents !== null);
        const notBoughtEveryone = publicPublished.filter((r) => r.unlock_mode === 'everyone' && ppv.findIndex((f) => f.id === r.id) % 3 !== 0);
        expect(notBoughtEveryone.length).toBeGreaterThan(0);
        expect(notBoughtEveryone.some((r) => postAccess(loaded, toFacts(r)).canViewMedia)).toBe(false);
        expect(publicPublished.filter((r) => r.unlock_mode === 'non_subscribers').every((r) => postAccess(loaded, toFacts(r)).canViewMedia)).toBe(true);
      }
    }
  });

  it('reads entitlements once for a page and only when a premium post of someone else is on it', async () => {
    const db = t.db;
    const [a, b, c] = [await makeUser(db, { isCreator: true }), await makeUser(db, { isCreator: true }), await makeUser(db, { isCreator: true })];
    const fan = await makeUser(db);
    await makeSubscription(db, { subscriberId: fan.id, creatorId: a.id });
    await makeSubscription(db, { subscriberId: fan.id, creatorId: b.id, periodEnd: new Date(Date.now() - 1000) });
    await makeSubscription(db, { subscriberId: fan.id, creatorId: c.id, status: 'expired' });
    const posts = [a, b, c].map((x) => ({ creatorId: x.id, isPremium: true }));
    const viewer = await loadViewer(db, fan.id, posts);
    expect([...viewer.entitlements.creators]).toEqual([a.id]);
    expect(await loadViewer(db, null, posts)).toEqual({ userId: null, entitlements: { creators: new Set(), posts: new Set() } });
    // a's own premium posts need no lookup (and a has no subscriptions anyway)
    expect(await loadViewer(db, a.id, [{ creatorId: a.id, isPremium: true }])).toEqual({ userId: a.id, entitlements: { creators: new Set(), posts: new Set() } });

    const premium = await makePost(db, null, { creatorId: a.id, isPremium: true });
    expect(await loadPostAccess(db, fan.id, premium.id, { media: true })).toMatchObject({ visible: true, canViewMedia: true });
    expect(await loadPostAccess(db, null, premium.id, { media: true })).toMatchObject({ visible: true, canViewMedia: false });
    expect(await loadPostAccess(db, fan.id, '00000000-0000-0000-0000-000000000000', { media: true })).toBeNull();
    expect(await findPostAccessFacts(db, [])).toEqual([]);
  });
});
