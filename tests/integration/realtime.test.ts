import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostRoomsAck, ServerToClientEvents } from '../../common/socket-events';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { socketPool, type ClientSocket } from '../helpers/sockets';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';


// Two server processes on one database, one Redis prefix and one storage, as behind a load balancer.
let a: TestServer;
let b: TestServer;
const sockets = socketPool();

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ shareWith: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});
afterEach(() => {
  sockets.closeAll();
});

const open = (server: TestServer, user: MadeUser | null) => sockets.open(server, user);

function join(socket: ClientSocket, postIds: string[]): Promise<string[]> {
  return new Promise((resolve) => socket.emit('post:join', postIds, (ack: PostRoomsAck) => resolve(ack.postIds)));
}

/** Every payload of `event` the socket receives from now on. */
function record<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  (socket.on as (e: string, fn: (p: unknown) => void) => void)(event, (payload) => seen.push(payload as never));
  let consumed = 0;
  return {
    seen,
    /** the next payload not yet returned by next(), waiting for it if needed */
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (seen.length <= consumed) {
        if (Date.now() > deadline) throw new Error(`no ${event} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return seen[consumed++]!;
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('live updates across two server processes', () => {
  it('a like, a comment and a bookmark on server A reach a socket on server B, with absolute counts and the actor', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const [bob, carol] = [await makeUser(a.deps.db), await makeUser(a.deps.db)];
    const p = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });

    const watcher = await open(b, carol);
    expect(await join(watcher, [p.id])).toEqual([p.id]);
    const likes = record(watcher, 'post:likes');
    const comments = record(watcher, 'post:comment');
    const bookmarks = record(watcher, 'post:bookmarks');
    const asBob = await clientAs(a, bob.id);

    await asBob.trpc.posts.like.mutate({ postId: p.id });
    expect(await likes.next()).toEqual({ postId: p.id, likes: 1, actorId: bob.id });
    await asBob.trpc.posts.unlike.mutate({ postId: p.id });
    expect(await likes.next()).toEqual({ postId: p.id, likes: 0, actorId: bob.id });

    const added = await asBob.trpc.comments.add.mutate({ postId: p.id, text: 'live!' });
    expect(await comments.next()).toEqual({
      postId: p.id,
      comments: 1,
      actorId: bob.id,
      comment: { ...added.comment, createdAt: added.comment.createdAt.toISOString() },
    });

    await asBob.trpc.bookmarks.add.mutate({ postId: p.id });
    expect(await bookmarks.next()).toEqual({ postId: p.id, bookmarks: 1, actorId: bob.id });
    await asBob.trpc.bookmarks.remove.mutate({ postId: p.id });
    expect(await bookmarks.next()).toEqual({ postId: p.id, bookmarks: 0, actorId: bob.id });

    // no-ops send nothing: the count did not move (and never goes below 0)
    await asBob.trpc.posts.unlike.mutate({ postId: p.id });
    await asBob.trpc.bookmarks.remove.mutate({ postId: p.id });
    await settle();
    expect(likes.seen).toHaveLength(2);
    expect(bookmarks.seen).toHaveLength(2);
  });

  it('tells every open feed, signed in or not and on either server, that a post was deleted', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const p = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const visitorOnB = record(await open(b, null), 'post:deleted');
    const fanOnA = record(await open(a, await makeUser(a.deps.db)), 'post:deleted');
    await (await clientAs(b, alice.id)).trpc.posts.delete.mutate({ postId: p.id });
    expect(await visitorOnB.next()).toEqual({ postId: p.id, actorId: alice.id });
    expect(await fanOnA.next()).toEqual({ postId: p.id, actorId: alice.id });
  });
});

describe('post rooms are authorised', () => {
  it('joins only posts visible to the socket user, and events of the others never arrive', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const privateCreator = await makeUser(a.deps.db, { isCreator: true, visibility: 'private' });
    const open_ = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const premium = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null, isPremium: true });
    const draft = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null, status: 'draft' });
    const privatePost = await makePost(a.deps.db, null, { creatorId: privateCreator.id, kind: null });
    const all = [open_.id, premium.id, draft.id, privatePost.id, '00000000-0000-0000-0000-000000000000', 'junk'];

    const bob = await makeUser(a.deps.db);
    const bobSocket = await open(b, bob);
    expect(new Set(await join(bobSocket, all))).toEqual(new Set([open_.id, premium.id]));
    const visitor = await open(a, null);
    expect(new Set(await join(visitor, all))).toEqual(new Set([open_.id, premium.id]));
    const owner = await open(a, alice);
    expect(new Set(await join(owner, all))).toEqual(new Set([open_.id, premium.id, draft.id]));
    const privateOwner = await open(b, privateCreator);
    expect(new Set(await join(privateOwner, all))).toEqual(new Set([open_.id, premium.id, privatePost.id]));
    // not an array, not strings: nothing joined
    expect(await join(bobSocket, 'x' as never)).toEqual([]);
    expect(await join(bobSocket, [1, null, { id: draft.id }] as never)).toEqual([]);

    const bobLikes = record(bobSocket, 'post:likes');
    const ownerLikes = record(owner, 'post:likes');
    const asAlice = await clientAs(a, alice.id);
    await asAlice.trpc.posts.like.mutate({ postId: draft.id });
    await asAlice.trpc.posts.like.mutate({ postId: open_.id });
    expect(await bobLikes.next()).toMatchObject({ postId: open_.id });
    expect((await ownerLikes.next()).postId).toBe(draft.id);
    await settle();
    expect(bobLikes.seen.map((e) => e.postId)).toEqual([open_.id]);

    // leaving a room stops its events
    await new Promise<void>((resolve) => bobSocket.emit('post:leave', [open_.id], () => resolve()));
    await asAlice.trpc.posts.unlike.mutate({ postId: open_.id });
    await settle();
    expect(bobLikes.seen).toHaveLength(1);
  });

  it('takes at most 50 post ids per join', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await makePost(a.deps.db, null, { creatorId: alice.id, kind: null })).id);
    expect(await join(await open(a, null), ids)).toHaveLength(50);
  });

  it('drops a socket’s events beyond 10 per second and says so once', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const p = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const socket = await open(b, null);
    const limited = record(socket, 'rate:limited');
    let acks = 0;
    for (let i = 0; i < 15; i++) socket.emit('post:join', [p.id], () => (acks += 1));
    expect(await limited.next()).toEqual({ limit: 10 });
    await settle();
    expect(acks).toBe(10);
    expect(limited.seen).toHaveLength(1);
    // the next second is a new window
    await new Promise((r) => setTimeout(r, 1000));
    expect(await join(socket, [p.id])).toEqual([p.id]);
  });
});
