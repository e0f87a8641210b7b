import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { makePost, makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { socketPool } from '../../../tests/helpers/sockets';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

const edit = (postId: string, over: Record<string, unknown> = {}) => ({ postId, title: 'New title', text: 'Fixed the typo #fixed', hashtags: '', isPremium: false, unlock: null, ...over });

describe('posts.edit', () => {
  it('only the owner edits; made premium it locks at once for the unentitled, buyers and subscribers keep access; open tabs hear it', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image' });
    const fan = await makeUser(app.deps.db);
    const subscriber = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: subscriber.id, creatorId: creator.id });
    const [asCreator, asFan, asSub] = [await clientAs(app, creator.id), await clientAs(app, fan.id), await clientAs(app, subscriber.id)];
    await expectTrpcError(asFan.trpc.posts.edit.mutate(edit(post.id)), 'FORBIDDEN');
    await expectTrpcError(app.client().trpc.posts.edit.mutate(edit(post.id)), 'UNAUTHORIZED');

    const tab = await sockets.open(app, fan);
    await new Promise<void>((resolve) => tab.emit('room:join', { kind: 'post', ids: [post.id] }, () => resolve()));
    const heard: unknown[] = [];
    tab.on('post:updated', (e) => heard.push(e));

    const edited = await asCreator.trpc.posts.edit.mutate(edit(post.id, { isPremium: true }));
    expect(edited).toMatchObject({ title: 'New title', text: 'Fixed the typo #fixed', hashtags: ['fixed'], isPremium: true, status: 'published' });
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);
    expect((await app.client().fetch(`/media/${post.id}/original`)).status).toBe(403);
    expect((await asSub.fetch(`/media/${post.id}/original`)).status).toBe(200);
    expect((await asFan.trpc.posts.byId.query({ id: post.id })).title).toBe('New title');
    await expect.poll(() => heard.length).toBeGreaterThan(0);

    // priced for everyone: the subscriber must buy; a buyer keeps it through a later edit
    await asCreator.trpc.posts.edit.mutate(edit(post.id, { unlock: { price: '20', mode: 'everyone' } }));
    expect((await asSub.fetch(`/media/${post.id}/original`)).status).toBe(403);
    await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' });
    await asCreator.trpc.posts.edit.mutate(edit(post.id, { isPremium: true, unlock: { price: '40', mode: 'everyone' } }));
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    await expectTrpcError(asCreator.trpc.posts.edit.mutate(edit(post.id, { unlock: { price: '5', mode: 'everyone' } })), 'BAD_REQUEST');
  });
});

describe('posts.pin', () => {
  it("pins at most 3 of the owner's published posts (parallel presses too); the profile's cards carry pinnedAt", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const posts = [];
    for (let i = 0; i < 5; i++) posts.push(await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, createdAt: new Date(Date.now() - (10 - i) * 60_000) }));
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, status: 'draft' });
    const fan = await makeUser(app.deps.db);
    const [asCreator, asFan] = [await clientAs(app, creator.id), await clientAs(app, fan.id)];
    await expectTrpcError(asFan.trpc.posts.pin.mutate({ postId: posts[0]!.id, pinned: true }), 'FORBIDDEN');
    await expectTrpcError(asCreator.trpc.posts.pin.mutate({ postId: draft.id, pinned: true }), 'BAD_REQUEST');
    const results = await Promise.allSettled(posts.slice(0, 4).map((p) => asCreator.trpc.posts.pin.mutate({ postId: p.id, pinned: true })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const pinned = await app.deps.db.selectFrom('posts').select('id').where('creator_id', '=', creator.id).where('pinned_at', 'is not', null).execute();
    expect(pinned).toHaveLength(3);
    const page = await asFan.trpc.profiles.posts.query({ username: creator.username });
    expect(page.items.filter((p) => p.pinnedAt).map((p) => p.id).sort()).toEqual(pinned.map((p) => p.id).sort());
  });
});

describe('profiles.posts with pinned posts', () => {
  it('lists pinned posts first (newest pin first), then pages through the rest with no repeats or skips', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const posts: { id: string }[] = [];
    for (let i = 0; i < 7; i++) posts.push(await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, createdAt: new Date(Date.now() - (20 - i) * 60_000) }));
    const newestFirst = posts.map((p) => p.id).reverse();
    const asCreator = await clientAs(app, creator.id);
    // the oldest pinned first, then the third: the third leads (newest pin)
    await asCreator.trpc.posts.pin.mutate({ postId: posts[0]!.id, pinned: true });
    await asCreator.trpc.posts.pin.mutate({ postId: posts[2]!.id, pinned: true });
    const visitor = app.client().trpc;

    const seen: string[] = [];
    let page = await visitor.profiles.posts.query({ username: creator.username, limit: 2 });
    expect(page.items.slice(0, 2).map((p) => [p.id, Boolean(p.pinnedAt)])).toEqual([[posts[2]!.id, true], [posts[0]!.id, true]]);
    seen.push(...page.items.map((p) => p.id));
    while (page.nextCursor) {
      page = await visitor.profiles.posts.query({ username: creator.username, limit: 2, cursor: page.nextCursor });
      seen.push(...page.items.map((p) => p.id));
    }
    const rest = newestFirst.filter((id) => id !== posts[0]!.id && id !== posts[2]!.id);
    expect(seen).toEqual([posts[2]!.id, posts[0]!.id, ...rest]);

    // unpinned, the post goes back to its place among the rest
    await asCreator.trpc.posts.pin.mutate({ postId: posts[2]!.id, pinned: false });
    expect((await visitor.profiles.posts.query({ username: creator.username, limit: 20 })).items.map((p) => p.id)).toEqual([
      posts[0]!.id,
      ...newestFirst.filter((id) => id !== posts[0]!.id),
    ]);
  });

  it("another user's pin is refused and changes nothing", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const other = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    await expectTrpcError((await clientAs(app, other.id)).trpc.posts.pin.mutate({ postId: post.id, pinned: true }), 'FORBIDDEN');
    await expectTrpcError(app.client().trpc.posts.pin.mutate({ postId: post.id, pinned: true }), 'UNAUTHORIZED');
    const [card] = (await app.client().trpc.profiles.posts.query({ username: creator.username })).items;
    expect(card?.pinnedAt ?? null).toBeNull();
  });
});
