import { describe, expect, it } from 'vitest';
import { POST_STATUSES, PROFILE_VISIBILITIES, type ProfileVisibility } from '../../common/enums';
import { makePost, makeSubscription, makeUser } from '../../tests/helpers/factories';
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
  viewerWithoutEntitlements,
  visiblePostWhere,
} from './access';
import { findPostAccessFacts } from './access.queries';

const t = useTestDb();

describe('the access rule', () => {
  it('decides visibility and media as the spec says', () => {
    const anyone = viewerWithoutEntitlements('u-fan');
    const subscriber = { userId: 'u-sub', entitlements: { creators: new Set(['c1']) } };
    const owner = viewerWithoutEntitlements('c1');
    const visitor = viewerWithoutEntitlements(null);
    const post = (over: Partial<Parameters<typeof postAccess>[1]> = {}) => ({
      creatorId: 'c1',
      status: 'published' as const,
      isPremium: false,
      creatorVisibility: 'public' as ProfileVisibility | null,
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
  });

  it('names the profile rules: owner-only (private, hidden) and visible to all (public, or no settings row)', () => {
    expect(PROFILE_VISIBILITIES.filter(isOwnerOnlyProfile)).toEqual(['private', 'hidden']);
    expect(isOwnerOnlyProfile(null)).toBe(false);
    expect(PROFILE_VISIBILITIES.filter(profileVisibleToAll)).toEqual(['public']);
    expect(profileVisibleToAll(null)).toBe(true);
    // the same answers as the general rule asked for nobody, and for someone without a subscription
    for (const visibility of [...PROFILE_VISIBILITIES, null]) {
      expect(profileVisibleToAll(visibility)).toBe(postAccess(viewerWithoutEntitlements(null), { creatorId: 'c1', status: 'published', isPremium: false, creatorVisibility: visibility }).visible);
      if (visibility !== 'friends') expect(isOwnerOnlyProfile(visibility)).toBe(!postAccess(viewerWithoutEntitlements('u-fan'), { creatorId: 'c1', status: 'published', isPremium: false, creatorVisibility: visibility }).visible);
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
        for (const isPremium of [false, true]) await makePost(db, null, { creatorId: c.id, status, isPremium, kind: null });
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
      .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'ps.profile_visibility'])
      .execute();
    expect(facts).toHaveLength(5 * POST_STATUSES.length * 2);

    const friendsPosts = facts.filter((f) => f.profile_visibility === 'friends' && f.status === 'published').map((f) => f.id);
    for (const viewerId of [null, stranger.id, fan.id, lapsed.id, ...creators.map((c) => c.id)]) {
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
        .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'ps.profile_visibility', viewerSubscribedColumn(viewerId).as('viewer_subscribed')])
        .execute();
      const accessBy = (v: Awaited<ReturnType<typeof loadViewer>>, rows: typeof facts) => Object.fromEntries(rows.map((r) => [r.id, postAccess(v, toFacts(r))]));
      // on a page of all the posts, and on a page without premium posts (friends profiles alone ask then)
      for (const page of [withColumn, withColumn.filter((r) => !r.is_premium)]) {
        const loaded = await loadViewer(db, viewerId, page.map(toFacts));
        expect(accessBy(viewerOfRows(viewerId, page), page)).toEqual(accessBy(loaded, page));
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
    expect(await loadViewer(db, null, posts)).toEqual({ userId: null, entitlements: { creators: new Set() } });
    // a's own premium posts need no lookup (and a has no subscriptions anyway)
    expect(await loadViewer(db, a.id, [{ creatorId: a.id, isPremium: true }])).toEqual({ userId: a.id, entitlements: { creators: new Set() } });

    const premium = await makePost(db, null, { creatorId: a.id, isPremium: true });
    expect(await loadPostAccess(db, fan.id, premium.id, { media: true })).toMatchObject({ visible: true, canViewMedia: true });
    expect(await loadPostAccess(db, null, premium.id, { media: true })).toMatchObject({ visible: true, canViewMedia: false });
    expect(await loadPostAccess(db, fan.id, '00000000-0000-0000-0000-000000000000', { media: true })).toBeNull();
    expect(await findPostAccessFacts(db, [])).toEqual([]);
  });
});
