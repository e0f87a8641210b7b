import { beforeEach, describe, expect, it } from 'vitest';
import type { ProfileVisibility } from '../../../common/enums';
import { makePost, makeSubscription, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useTestServer } from '../../../tests/helpers/test-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useTestServer();
// every test starts with no users, hence no posts (cascades)
beforeEach(async () => {
  await app.deps.db.deleteFrom('users').execute();
});

const MINUTE = 60_000;
const minutesAgo = (n: number) => new Date(Date.now() - n * MINUTE);
const creator = (visibility: ProfileVisibility = 'public') => makeUser(app.deps.db, { isCreator: true, visibility });
const fan = () => makeUser(app.deps.db);
const post = (c: MadeUser, opts: Parameters<typeof makePost>[2] extends infer O ? Omit<O & object, 'creatorId'> : never = {}) =>
  makePost(app.deps.db, app.deps.storage, { creatorId: c.id, ...opts });

async function like(userId: string, postId: string) {
  await app.deps.db.insertInto('post_likes').values({ post_id: postId, user_id: userId }).execute();
}

describe('posts.feed', () => {
  it('pages published posts newest first, 5 at a time, and ends with a short page', async () => {
    const alice = await creator();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await post(alice, { createdAt: minutesAgo(100 - i) })).id);
    const newestFirst = [...ids].reverse();
    const visitor = app.client().trpc;

    const one = await visitor.posts.feed.query({});
    expect(one.items.map((p) => p.id)).toEqual(newestFirst.slice(0, 5));
    expect(one.nextCursor).not.toBeNull();
    const two = await visitor.posts.feed.query({ cursor: one.nextCursor });
    expect(two.items.map((p) => p.id)).toEqual(newestFirst.slice(5, 10));
    const three = await visitor.posts.feed.query({ cursor: two.nextCursor });
    expect(three.items.map((p) => p.id)).toEqual(newestFirst.slice(10));
    expect(three.nextCursor).toBeNull();
  });

  it('keeps pages stable when a post is published between page loads', async () => {
    const alice = await creator();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await post(alice, { createdAt: minutesAgo(50 - i) })).id);
    const newestFirst = [...ids].reverse();
    const visitor = app.client().trpc;

    const one = await visitor.posts.feed.query({ limit: 5 });
    const fresh = await post(alice, { createdAt: new Date() });
    const two = await visitor.posts.feed.query({ limit: 5, cursor: one.nextCursor });
    expect(two.items.map((p) => p.id)).toEqual(newestFirst.slice(5));
    expect(two.items.map((p) => p.id)).not.toContain(fresh.id);
    // a refetch from the top sees it first
    expect((await visitor.posts.feed.query({})).items[0]!.id).toBe(fresh.id);
  });

  it('lists a draft published today as today\'s post: first in the feed, the Content tab and Explore', async () => {
    const alice = await creator();
    const draft = await post(alice, { status: 'draft', createdAt: minutesAgo(3 * 24 * 60) });
    for (let i = 0; i < 6; i++) await post(alice, { createdAt: minutesAgo(60 - i) });
    const asAlice = await clientAs(app, alice.id);
    const visitor = app.client().trpc;
    const signedIn = (await clientAs(app, (await fan()).id)).trpc;
    const firstOf = async () => [
      (await visitor.posts.feed.query({})).items[0]?.id,
      (await visitor.profiles.posts.query({ username: alice.username })).items[0]?.id,
      (await signedIn.explore.search.query({})).items[0]?.id,
    ];
    expect(await firstOf()).not.toContain(draft.id);

    await asAlice.trpc.profiles.publishDraft.mutate({ postId: draft.id });
    expect(await firstOf()).toEqual([draft.id, draft.id, draft.id]);
    // the next page starts after it, with the rest in their published order
    const page = await visitor.posts.feed.query({});
    const next = await visitor.posts.feed.query({ cursor: page.nextCursor! });
    expect([...page.items, ...next.items].map((p) => p.id)).toHaveLength(7);
    expect(new Set([...page.items, ...next.items].map((p) => p.id)).size).toBe(7);
  });

  it('pages exactly through posts published in the same microsecond (ties broken by id)', async () => {
    const alice = await creator();
    // not a clock: a day long past, the same for seven posts; only their order is read
    const at = new Date('2026-01-01T12:00:00.123Z');
    const made = [];
    for (let i = 0; i < 7; i++) made.push((await post(alice, { createdAt: at })).id);
    // the same instant to the microsecond, which a JS Date cannot carry
    // not a clock: the same past instant, to the microsecond
    await app.deps.db.updateTable('posts').set({ published_at: '2026-01-01T12:00:00.123456Z' }).execute();
    const visitor = app.client().trpc;
    const one = await visitor.posts.feed.query({});
    // not a clock: the cursor names that instant
    expect(one.nextCursor?.createdAt).toBe('2026-01-01T12:00:00.123456Z');
    const two = await visitor.posts.feed.query({ cursor: one.nextCursor });
    const seen = [...one.items, ...two.items].map((p) => p.id);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(made));
    expect(seen).toEqual([...made].sort().reverse());
  });

  it('never shows drafts, processing or failed posts, nor private or hidden creators, nor friends-only creators to non-subscribers', async () => {
    const open = await creator('public');
    const friends = await creator('friends');
    const privateCreator = await creator('private');
    const hidden = await creator('hidden');
    const shown = [await post(open, { createdAt: minutesAgo(1) })];
    await post(friends, { createdAt: minutesAgo(2) });
    await post(open, { status: 'draft', createdAt: minutesAgo(0.5) });
    await post(open, { status: 'processing', createdAt: minutesAgo(0.4) });
    await post(open, { status: 'failed', createdAt: minutesAgo(0.3) });
    const privatePost = await post(privateCreator, { createdAt: minutesAgo(0.2) });
    await post(hidden, { createdAt: minutesAgo(0.1) });

    const expected = shown.map((p) => p.id);
    expect((await app.client().trpc.posts.feed.query({ limit: 20 })).items.map((p) => p.id)).toEqual(expected);
    const someone = await clientAs(app, (await fan()).id);
    expect((await someone.trpc.posts.feed.query({ limit: 20 })).items.map((p) => p.id)).toEqual(expected);
    // a private creator still sees their own published posts in their feed, never their drafts
    const owner = await clientAs(app, privateCreator.id);
    expect((await owner.trpc.posts.feed.query({ limit: 20 })).items.map((p) => p.id)).toEqual([privatePost.id, ...expected]);
    // a creator without a privacy_settings row is public
    await app.deps.db.deleteFrom('privacy_settings').where('user_id', '=', hidden.id).execute();
    expect((await app.client().trpc.posts.feed.query({ limit: 20 })).items).toHaveLength(2);
  });

  it('carries counts and the viewer state of every post', async () => {
    const alice = await creator();
    const [f1, f2, f3] = [await fan(), await fan(), await fan()];
    const a = await post(alice, { createdAt: minutesAgo(2) });
    const b = await post(alice, { createdAt: minutesAgo(1) });
    for (const f of [f1, f2, f3]) await like(f.id, a.id);
    await like(f1.id, b.id);
    await app.deps.db
      .insertInto('comments')
      .values([
        { post_id: a.id, user_id: f2.id, comment_text: 'first' },
        { post_id: a.id, user_id: f3.id, comment_text: 'second' },
      ])
      .execute();
    await app.deps.db.insertInto('bookmarks').values({ user_id: f1.id, post_id: a.id }).execute();

    const asF1 = await clientAs(app, f1.id);
    const [pb, pa] = (await asF1.trpc.posts.feed.query({})).items;
    expect(pa!.counts).toEqual({ likes: 3, comments: 2, bookmarks: 1 });
    expect(pa!.viewer).toEqual({ liked: true, bookmarked: true, isOwner: false, canViewMedia: true });
    expect(pb!.counts).toEqual({ likes: 1, comments: 0, bookmarks: 0 });
    expect(pb!.viewer).toEqual({ liked: true, bookmarked: false, isOwner: false, canViewMedia: true });

    const asF2 = await clientAs(app, f2.id);
    expect((await asF2.trpc.posts.feed.query({})).items.map((p) => p.viewer.liked)).toEqual([false, true]);
    const visitorItems = (await app.client().trpc.posts.feed.query({})).items;
    expect(visitorItems.map((p) => [p.viewer.liked, p.viewer.bookmarked])).toEqual([[false, false], [false, false]]);
    const asOwner = await clientAs(app, alice.id);
    expect((await asOwner.trpc.posts.feed.query({})).items.every((p) => p.viewer.isOwner)).toBe(true);
  });

  it('maps the whole DTO, with media URLs of the media route', async () => {
    const alice = await creator();
    const made = await post(alice, { title: 'Sunset', text: 'Golden hour #sunset', hashtags: ['sunset'] });
    const [dto] = (await app.client().trpc.posts.feed.query({})).items;
    expect(dto).toEqual({
      id: made.id,
      title: 'Sunset',
      text: 'Golden hour #sunset',
      hashtags: ['sunset'],
      isPremium: false,
      isNsfw: false,
      status: 'published',
      publishAt: null,
      createdAt: expect.any(Date),
      mediaKind: 'image',
      unlock: null,
      pinnedAt: null,
      creator: {
        id: alice.id,
        username: alice.username,
        displayName: expect.any(String),
        avatarUrl: null,
        isVerified: false,
        isPremium: false,
      },
      counts: { likes: 0, comments: 0, bookmarks: 0 },
      viewer: { liked: false, bookmarked: false, isOwner: false, canViewMedia: true },
      media: {
        contentType: 'image/jpeg',
        width: 640,
        height: 360,
        durationSeconds: null,
        fileName: null,
        byteSize: expect.any(Number),
        url: `/media/${made.id}/web`,
        thumbUrl: `/media/${made.id}/thumb`,
        // a file made before the medium size has none
        mediumUrl: null,
        posterUrl: null,
        downloadUrl: `/media/${made.id}/original?download=1`,
        streamUrl: null,
        previewUrl: null,
      },
    });
  });

  it('gates premium media: only the creator and active subscribers get media URLs', async () => {
    const alice = await creator();
    const premium = await post(alice, { isPremium: true, kind: 'video' });
    const [subscriber, stranger, lapsed, canceled] = [await fan(), await fan(), await fan(), await fan()];
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: alice.id });
    await makeSubscription(app.deps.db, { subscriberId: lapsed.id, creatorId: alice.id, periodEnd: minutesAgo(1) });
    await makeSubscription(app.deps.db, { subscriberId: canceled.id, creatorId: alice.id, status: 'canceled' });
    // a subscription to someone else entitles nothing here
    await makeSubscription(app.deps.db, { subscriberId: stranger.id, creatorId: (await creator()).id });

    const first = async (userId: string | null) => {
      const client = userId ? await clientAs(app, userId) : app.client();
      return (await client.trpc.posts.feed.query({})).items[0]!;
    };
    const locked = {
      contentType: 'video/mp4',
      width: 640,
      height: 360,
      durationSeconds: 12.5,
      // nothing about the file itself
      fileName: null,
      byteSize: null,
      url: null,
      thumbUrl: null,
      mediumUrl: null,
      posterUrl: null,
      downloadUrl: null,
      streamUrl: null,
      previewUrl: `/media/${premium.id}/preview`,
    };
    for (const who of [null, stranger.id, lapsed.id, canceled.id]) {
      const dto = await first(who);
      expect(dto.viewer.canViewMedia).toBe(false);
      expect(dto.media).toEqual(locked);
      // text, author and counts are still there
      expect(dto.text).toBe('Fixture text #fixture');
      expect(dto.creator.id).toBe(alice.id);
    }
    for (const who of [subscriber.id, alice.id]) {
      const dto = await first(who);
      expect(dto.viewer.canViewMedia).toBe(true);
      expect(dto.media).toMatchObject({
        url: `/media/${premium.id}/original`,
        posterUrl: `/media/${premium.id}/poster`,
        downloadUrl: `/media/${premium.id}/original?download=1`,
        streamUrl: `/hls/${premium.id}/0/master.m3u8`,
      });
    }
  });

  it('reads a page in one statement whatever its size (no query per post)', async () => {
    const creators = [await creator(), await creator(), await creator()];
    const viewer = await fan();
    for (const c of creators) await makeSubscription(app.deps.db, { subscriberId: viewer.id, creatorId: c.id });
    for (let i = 0; i < 20; i++) {
      const p = await post(creators[i % 3]!, { isPremium: i % 2 === 1, createdAt: minutesAgo(100 - i), kind: i % 4 === 0 ? 'video' : 'image' });
      await like(viewer.id, p.id);
    }
    const client = await clientAs(app, viewer.id);
    const counts: number[] = [];
    for (const limit of [1, 5, 20]) {
      app.queries.reset();
      const page = await client.trpc.posts.feed.query({ limit });
      expect(page.items).toHaveLength(limit);
      counts.push(app.queries.withoutSession().length);
    }
    // the page with its counts, the viewer's state, entitlements and media (the session aside)
    expect(counts).toEqual([1, 1, 1]);
    app.queries.reset();
    await app.client().trpc.posts.feed.query({ limit: 20 });
    expect(app.queries.list()).toHaveLength(1);
  });

  it('refuses a page size over 20 and a forged cursor', async () => {
    const visitor = app.client().trpc;
    await expectTrpcError(visitor.posts.feed.query({ limit: 21 }), 'BAD_REQUEST');
    // not a clock: forged cursors, refused before any clock is read
    await expectTrpcError(visitor.posts.feed.query({ cursor: { createdAt: "2026-01-01'; drop table posts; --", id: 'x' } }), 'BAD_REQUEST');
    await expectTrpcError(visitor.posts.feed.query({ cursor: { createdAt: '2026-02-30T00:00:00Z', id: '00000000-0000-0000-0000-000000000000' } }), 'BAD_REQUEST'); // not a clock: February 30th
  });
});

describe('posts.byId', () => {
  it('returns a visible post with counts and viewer state', async () => {
    const alice = await creator();
    const made = await post(alice);
    const bob = await fan();
    await like(bob.id, made.id);
    const dto = await (await clientAs(app, bob.id)).trpc.posts.byId.query({ id: made.id });
    expect(dto).toMatchObject({ id: made.id, counts: { likes: 1 }, viewer: { liked: true, isOwner: false } });
  });

  it('answers Post not found for unknown, malformed and invisible posts, and shows the owner their own', async () => {
    const alice = await creator();
    const privateCreator = await creator('private');
    const hidden = await creator('hidden');
    const draft = await post(alice, { status: 'draft' });
    const processing = await post(alice, { status: 'processing', kind: null });
    const failed = await post(alice, { status: 'failed' });
    const privatePost = await post(privateCreator);
    const hiddenPost = await post(hidden);
    const bob = await clientAs(app, (await fan()).id);
    const visitor = app.client();

    for (const id of [draft.id, processing.id, failed.id, privatePost.id, hiddenPost.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      await expectTrpcError(bob.trpc.posts.byId.query({ id }), 'NOT_FOUND', 'Post not found');
      await expectTrpcError(visitor.trpc.posts.byId.query({ id }), 'NOT_FOUND', 'Post not found');
    }
    const asAlice = await clientAs(app, alice.id);
    expect((await asAlice.trpc.posts.byId.query({ id: draft.id })).status).toBe('draft');
    expect(await asAlice.trpc.posts.byId.query({ id: processing.id })).toMatchObject({ status: 'processing', media: null });
    expect((await asAlice.trpc.posts.byId.query({ id: failed.id })).status).toBe('failed');
    const asPrivate = await clientAs(app, privateCreator.id);
    expect((await asPrivate.trpc.posts.byId.query({ id: privatePost.id })).viewer.isOwner).toBe(true);
  });

  it("says 'Post ID is required' for an empty id", async () => {
    await expectTrpcError(app.client().trpc.posts.byId.query({ id: ' ' }), 'BAD_REQUEST', 'Post ID is required');
  });
});

describe('posts.like / posts.unlike', () => {
  it('is idempotent both ways and returns the new count', async () => {
    const alice = await creator();
    const made = await post(alice);
    const [bob, carol] = [await fan(), await fan()];
    const asBob = await clientAs(app, bob.id);
    const asCarol = await clientAs(app, carol.id);

    expect(await asBob.trpc.posts.like.mutate({ postId: made.id })).toEqual({ postId: made.id, liked: true, likes: 1 });
    expect(await asBob.trpc.posts.like.mutate({ postId: made.id })).toEqual({ postId: made.id, liked: true, likes: 1 });
    expect(await asCarol.trpc.posts.like.mutate({ postId: made.id })).toEqual({ postId: made.id, liked: true, likes: 2 });
    expect(await asBob.trpc.posts.unlike.mutate({ postId: made.id })).toEqual({ postId: made.id, liked: false, likes: 1 });
    expect(await asBob.trpc.posts.unlike.mutate({ postId: made.id })).toEqual({ postId: made.id, liked: false, likes: 1 });
    expect((await asCarol.trpc.posts.byId.query({ id: made.id })).counts.likes).toBe(1);
  });

  it('refuses visitors and posts the user may not see', async () => {
    const alice = await creator();
    const privateCreator = await creator('private');
    const made = await post(alice);
    const draft = await post(alice, { status: 'draft' });
    const privatePost = await post(privateCreator);
    await expectTrpcError(app.client().trpc.posts.like.mutate({ postId: made.id }), 'UNAUTHORIZED');
    const asBob = await clientAs(app, (await fan()).id);
    for (const id of [draft.id, privatePost.id, '00000000-0000-0000-0000-000000000000']) {
      await expectTrpcError(asBob.trpc.posts.like.mutate({ postId: id }), 'NOT_FOUND', 'Post not found');
      await expectTrpcError(asBob.trpc.posts.unlike.mutate({ postId: id }), 'NOT_FOUND', 'Post not found');
    }
    expect(await app.deps.db.selectFrom('post_likes').selectAll().execute()).toEqual([]);
    // the owner may like their own draft (it is visible to them)
    const asAlice = await clientAs(app, alice.id);
    expect((await asAlice.trpc.posts.like.mutate({ postId: draft.id })).likes).toBe(1);
  });

  it('lets a non-subscriber like a premium post (its text and counts are public)', async () => {
    const alice = await creator();
    const premium = await post(alice, { isPremium: true });
    const asBob = await clientAs(app, (await fan()).id);
    expect((await asBob.trpc.posts.like.mutate({ postId: premium.id })).likes).toBe(1);
  });
});

describe('posts.delete', () => {
  it("refuses another user's post with the spec's words, and a post they cannot see as not found", async () => {
    const alice = await creator();
    const made = await post(alice);
    const draft = await post(alice, { status: 'draft' });
    const asBob = await clientAs(app, (await creator()).id);
    await expectTrpcError(asBob.trpc.posts.delete.mutate({ postId: made.id }), 'FORBIDDEN', 'You can only delete your own posts');
    await expectTrpcError(asBob.trpc.posts.delete.mutate({ postId: draft.id }), 'NOT_FOUND', 'Post not found');
    await expectTrpcError(app.client().trpc.posts.delete.mutate({ postId: made.id }), 'UNAUTHORIZED');
    const left = await app.deps.db.selectFrom('posts').select('id').execute();
    expect(left).toHaveLength(2);
    expect(await app.deps.storage.exists(made.keys.original!)).toBe(true);
  });

  it('deletes the rows in one go and the stored files through the maintenance job', async () => {
    const alice = await creator();
    const made = await post(alice, { isPremium: true });
    const keep = await post(alice);
    const bob = await fan();
    await like(bob.id, made.id);
    await app.deps.db.insertInto('comments').values({ post_id: made.id, user_id: bob.id, comment_text: 'nice' }).execute();
    await app.deps.db.insertInto('bookmarks').values({ user_id: bob.id, post_id: made.id }).execute();
    const keys = Object.values(made.keys);
    expect(keys).toHaveLength(4);

    const asAlice = await clientAs(app, alice.id);
    expect(await asAlice.trpc.posts.delete.mutate({ postId: made.id })).toEqual({ postId: made.id });
    const db = app.deps.db;
    expect(await db.selectFrom('posts').select('id').execute()).toEqual([{ id: keep.id }]);
    for (const table of ['post_likes', 'comments', 'bookmarks'] as const) {
      expect(await db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
    expect(await db.selectFrom('media_files').select('post_id').distinct().execute()).toEqual([{ post_id: keep.id }]);

    await app.drain('maintenance');
    for (const key of keys) expect(await app.deps.storage.exists(key)).toBe(false);
    expect(await app.deps.storage.exists(keep.keys.original!)).toBe(true);
    // deleting again: the post is gone
    await expectTrpcError(asAlice.trpc.posts.delete.mutate({ postId: made.id }), 'NOT_FOUND', 'Post not found');
  });
});
