import { describe, expect, it } from 'vitest';
import { makePost, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

// every test starts from no users at all
const app = useFileServer({ emptyUsers: true });

describe('bookmarks.add / bookmarks.remove', () => {
  it('adds once, refuses a duplicate with the spec words, removes idempotently, returns counts', async () => {
    const alice = await makeUser(app.deps.db, { isCreator: true });
    const p = await makePost(app.deps.db, null, { creatorId: alice.id, kind: null });
    const [bob, carol] = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    const asBob = await clientAs(app, bob.id);
    const asCarol = await clientAs(app, carol.id);

    expect(await asBob.trpc.bookmarks.add.mutate({ postId: p.id })).toEqual({ postId: p.id, bookmarked: true, bookmarks: 1 });
    await expectTrpcError(asBob.trpc.bookmarks.add.mutate({ postId: p.id }), 'CONFLICT', 'This post is already in your bookmarks');
    expect(await asCarol.trpc.bookmarks.add.mutate({ postId: p.id })).toEqual({ postId: p.id, bookmarked: true, bookmarks: 2 });
    expect(await asBob.trpc.bookmarks.remove.mutate({ postId: p.id })).toEqual({ postId: p.id, bookmarked: false, bookmarks: 1 });
    expect(await asBob.trpc.bookmarks.remove.mutate({ postId: p.id })).toEqual({ postId: p.id, bookmarked: false, bookmarks: 1 });
    const dto = await asCarol.trpc.posts.byId.query({ id: p.id });
    expect(dto.counts.bookmarks).toBe(1);
    expect(dto.viewer.bookmarked).toBe(true);
  });

  it('refuses visitors and posts the user may not see', async () => {
    const alice = await makeUser(app.deps.db, { isCreator: true });
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const p = await makePost(app.deps.db, null, { creatorId: alice.id, kind: null });
    const draft = await makePost(app.deps.db, null, { creatorId: alice.id, kind: null, status: 'draft' });
    const hiddenPost = await makePost(app.deps.db, null, { creatorId: hidden.id, kind: null });
    await expectTrpcError(app.client().trpc.bookmarks.add.mutate({ postId: p.id }), 'UNAUTHORIZED', 'Please sign in to bookmark posts');
    await expectTrpcError(app.client().trpc.bookmarks.remove.mutate({ postId: p.id }), 'UNAUTHORIZED', 'Please sign in to bookmark posts');
    const asBob = await clientAs(app, (await makeUser(app.deps.db)).id);
    for (const id of [draft.id, hiddenPost.id, '00000000-0000-0000-0000-000000000000']) {
      await expectTrpcError(asBob.trpc.bookmarks.add.mutate({ postId: id }), 'NOT_FOUND', 'Post not found');
      await expectTrpcError(asBob.trpc.bookmarks.remove.mutate({ postId: id }), 'NOT_FOUND', 'Post not found');
    }
    expect(await app.deps.db.selectFrom('bookmarks').selectAll().execute()).toEqual([]);
  });
});

describe('bookmarks.list', () => {
  it("lists the user's own bookmarks newest first, leaving out posts they can no longer see", async () => {
    const alice = await makeUser(app.deps.db, { isCreator: true });
    const goesPrivate = await makeUser(app.deps.db, { isCreator: true });
    const posts = [];
    for (let i = 0; i < 7; i++) posts.push(await makePost(app.deps.db, null, { creatorId: alice.id, kind: null }));
    const later = await makePost(app.deps.db, null, { creatorId: goesPrivate.id, kind: null });
    const bob = await makeUser(app.deps.db);
    const asBob = await clientAs(app, bob.id);
    for (const p of [...posts, later]) await asBob.trpc.bookmarks.add.mutate({ postId: p.id });
    // someone else's bookmarks never show
    const asCarol = await clientAs(app, (await makeUser(app.deps.db)).id);
    await asCarol.trpc.bookmarks.add.mutate({ postId: posts[0]!.id });
    await app.deps.db.updateTable('privacy_settings').set({ profile_visibility: 'private' }).where('user_id', '=', goesPrivate.id).execute();

    const one = await asBob.trpc.bookmarks.list.query({});
    const two = await asBob.trpc.bookmarks.list.query({ cursor: one.nextCursor });
    expect(one.items).toHaveLength(5);
    expect(two.nextCursor).toBeNull();
    expect([...one.items, ...two.items].map((p) => p.id)).toEqual([...posts].reverse().map((p) => p.id));
    expect(one.items.every((p) => p.viewer.bookmarked)).toBe(true);
    expect((await asCarol.trpc.bookmarks.list.query({})).items.map((p) => p.id)).toEqual([posts[0]!.id]);
    await expectTrpcError(app.client().trpc.bookmarks.list.query({}), 'UNAUTHORIZED');
  });
});
