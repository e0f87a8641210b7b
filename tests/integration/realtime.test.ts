import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RoomAck, RoomRequest, ServerToClientEvents } from '../../common/socket-events';
import { announceUnreadCount } from '../../server/features/messages/messages.service';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { socketPool, trpcAsTab, type ClientSocket } from '../helpers/sockets';
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

/** Asks for rooms (post rooms unless said otherwise) and resolves with the ids the server let the socket into. */
function join(socket: ClientSocket, ids: string[], kind: RoomRequest['kind'] = 'post'): Promise<string[]> {
  return new Promise((resolve) => socket.emit('room:join', { kind, ids }, (ack: RoomAck) => resolve(ack.ids)));
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
  it('a like, a comment and a bookmark on server A reach a socket on server B, with absolute counts', async () => {
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
    expect(await likes.next()).toEqual({ postId: p.id, likes: 1 });
    await asBob.trpc.posts.unlike.mutate({ postId: p.id });
    expect(await likes.next()).toEqual({ postId: p.id, likes: 0 });

    const added = await asBob.trpc.comments.add.mutate({ postId: p.id, text: 'live!' });
    expect(await comments.next()).toEqual({
      postId: p.id,
      comments: 1,
      comment: { ...added.comment, createdAt: added.comment.createdAt.toISOString() },
    });

    await asBob.trpc.bookmarks.add.mutate({ postId: p.id });
    expect(await bookmarks.next()).toEqual({ postId: p.id, bookmarks: 1 });
    await asBob.trpc.bookmarks.remove.mutate({ postId: p.id });
    expect(await bookmarks.next()).toEqual({ postId: p.id, bookmarks: 0 });

    // no-ops send nothing: the count did not move (and never goes below 0)
    await asBob.trpc.posts.unlike.mutate({ postId: p.id });
    await asBob.trpc.bookmarks.remove.mutate({ postId: p.id });
    await settle();
    expect(likes.seen).toHaveLength(2);
    expect(bookmarks.seen).toHaveLength(2);
  });
});

describe('events tell each socket only what its user may see', () => {
  it('a deletion reaches the sockets in the post’s room, on either server, and no other socket', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const hiddenCreator = await makeUser(a.deps.db, { isCreator: true, visibility: 'hidden' });
    const privateCreator = await makeUser(a.deps.db, { isCreator: true, visibility: 'private' });
    const visible = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const draft = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null, status: 'draft' });
    const hidden = await makePost(a.deps.db, null, { creatorId: hiddenCreator.id, kind: null });
    const privatePost = await makePost(a.deps.db, null, { creatorId: privateCreator.id, kind: null });
    const invisible = [draft.id, hidden.id, privatePost.id];

    // these two ask for the invisible posts only, and never join the visible one
    const visitor = await open(b, null);
    const fan = await open(a, await makeUser(a.deps.db));
    for (const socket of [visitor, fan]) expect(await join(socket, invisible)).toEqual([]);
    // these two ask for all four and are let into the visible one's room only
    const visitorWatching = await open(a, null);
    const fanWatching = await open(b, await makeUser(a.deps.db));
    for (const socket of [visitorWatching, fanWatching]) expect(await join(socket, [visible.id, ...invisible])).toEqual([visible.id]);
    const toVisitor = record(visitor, 'post:deleted');
    const toFan = record(fan, 'post:deleted');
    const toVisitorWatching = record(visitorWatching, 'post:deleted');
    const toFanWatching = record(fanWatching, 'post:deleted');

    await (await clientAs(a, alice.id)).trpc.posts.delete.mutate({ postId: draft.id });
    await (await clientAs(b, hiddenCreator.id)).trpc.posts.delete.mutate({ postId: hidden.id });
    await (await clientAs(a, privateCreator.id)).trpc.posts.delete.mutate({ postId: privatePost.id });
    await (await clientAs(b, alice.id)).trpc.posts.delete.mutate({ postId: visible.id });

    // the last deletion arrives, so the earlier ones had every chance to
    expect(await toVisitorWatching.next()).toEqual({ postId: visible.id });
    expect(await toFanWatching.next()).toEqual({ postId: visible.id });
    await settle();
    expect(toVisitorWatching.seen).toEqual([{ postId: visible.id }]);
    expect(toFanWatching.seen).toEqual([{ postId: visible.id }]);
    expect(toVisitor.seen).toEqual([]);
    expect(toFan.seen).toEqual([]);
  });

  it('no event a third party receives names the user who caused it', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const bob = await makeUser(a.deps.db);
    const p = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const watchers = [await open(b, null), await open(a, await makeUser(a.deps.db)), await open(b, alice)];
    const received: { event: string; payload: unknown }[] = [];
    for (const socket of watchers) {
      expect(await join(socket, [p.id])).toEqual([p.id]);
      socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
    }
    const deletions = record(watchers[0]!, 'post:deleted');

    const asBob = (await clientAs(a, bob.id)).trpc;
    await asBob.posts.like.mutate({ postId: p.id });
    await asBob.bookmarks.add.mutate({ postId: p.id });
    const { comment } = await asBob.comments.add.mutate({ postId: p.id, text: 'who am I?' });
    await (await clientAs(b, alice.id)).trpc.posts.delete.mutate({ postId: p.id });
    await deletions.next();
    await settle();

    // every watcher got every event (the check below had something to look at)
    const kinds = ['post:likes', 'post:bookmarks', 'post:comment', 'post:deleted'];
    // (alice, the post's creator, may also get her own bell's count: it is hers, and checked below with the rest)
    const postEvents = received.filter((r) => r.event !== 'notifications:unread');
    expect(postEvents.map((r) => r.event).sort()).toEqual(kinds.flatMap((k) => [k, k, k]).sort());
    // a comment shows its author (public, like the comment list); nothing else names bob, nor the deleting creator
    for (const { event, payload } of received) {
      let text = JSON.stringify(payload);
      if (event === 'post:comment') {
        const sent = payload as { comment: { author: unknown } };
        expect(sent.comment.author).toEqual({ ...comment.author });
        text = JSON.stringify({ ...sent, comment: { ...sent.comment, author: null } });
      }
      expect(text).not.toContain(bob.id);
      expect(text).not.toContain(alice.id);
    }
  });

  it('the tab that made a change does not get it back; the user’s other tabs do', async () => {
    const alice = await makeUser(a.deps.db, { isCreator: true });
    const bob = await makeUser(a.deps.db);
    const p = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null });
    const draft = await makePost(a.deps.db, null, { creatorId: alice.id, kind: null, status: 'draft' });

    const bobHere = await open(a, bob);
    const bobElsewhere = await open(b, bob);
    for (const socket of [bobHere, bobElsewhere]) expect(await join(socket, [p.id])).toEqual([p.id]);
    const here = { likes: record(bobHere, 'post:likes'), bookmarks: record(bobHere, 'post:bookmarks'), comments: record(bobHere, 'post:comment') };
    const elsewhere = {
      likes: record(bobElsewhere, 'post:likes'),
      bookmarks: record(bobElsewhere, 'post:bookmarks'),
      comments: record(bobElsewhere, 'post:comment'),
    };

    const fromBobHere = trpcAsTab(a, await clientAs(a, bob.id), bobHere.id);
    await fromBobHere.posts.like.mutate({ postId: p.id });
    await fromBobHere.bookmarks.add.mutate({ postId: p.id });
    await fromBobHere.comments.add.mutate({ postId: p.id, text: 'mine' });
    expect(await elsewhere.likes.next()).toEqual({ postId: p.id, likes: 1 });
    expect(await elsewhere.bookmarks.next()).toEqual({ postId: p.id, bookmarks: 1 });
    expect(await elsewhere.comments.next()).toMatchObject({ postId: p.id, comments: 1, comment: { text: 'mine' } });
    await settle();
    expect([here.likes.seen, here.bookmarks.seen, here.comments.seen]).toEqual([[], [], []]);

    // a header that is not a socket id (here: a room everyone is in) leaves nobody out
    for (const bad of ['feed', `post:${p.id}`, `${bobHere.id},${bobElsewhere.id}`]) {
      await trpcAsTab(a, await clientAs(a, bob.id), bad).posts.unlike.mutate({ postId: p.id });
      await trpcAsTab(a, await clientAs(a, bob.id), bad).posts.like.mutate({ postId: p.id });
    }
    await settle();
    expect(here.likes.seen).toHaveLength(6);
    expect(elsewhere.likes.seen).toHaveLength(7);

    // the creator deletes from one tab: the other hears of it through her own room, not being in the post's
    const aliceHere = await open(b, alice);
    const aliceElsewhere = await open(a, alice);
    expect(await join(aliceHere, [p.id, draft.id])).toEqual(expect.arrayContaining([p.id, draft.id]));
    const deletedHere = record(aliceHere, 'post:deleted');
    const deletedElsewhere = record(aliceElsewhere, 'post:deleted');
    const fromAliceHere = trpcAsTab(b, await clientAs(b, alice.id), aliceHere.id);
    await fromAliceHere.posts.delete.mutate({ postId: draft.id });
    await fromAliceHere.posts.delete.mutate({ postId: p.id });
    expect(await deletedElsewhere.next()).toEqual({ postId: draft.id });
    expect(await deletedElsewhere.next()).toEqual({ postId: p.id });
    await settle();
    expect(deletedHere.seen).toEqual([]);
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
    // not a known kind, not a request at all: nothing joined, and the ack says so
    for (const request of [{ kind: 'feed', ids: [open_.id] }, { kind: 'session', ids: [open_.id] }, [open_.id], 'x', null]) {
      const ack = await new Promise<RoomAck>((resolve) => bobSocket.emit('room:join', request as never, resolve));
      expect(ack).toEqual({ kind: null, ids: [] });
    }

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
    await new Promise<void>((resolve) => bobSocket.emit('room:leave', { kind: 'post', ids: [open_.id] }, () => resolve()));
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
    for (let i = 0; i < 15; i++) socket.emit('room:join', { kind: 'post', ids: [p.id] }, () => (acks += 1));
    expect(await limited.next()).toEqual({ limit: 10 });
    await settle();
    expect(acks).toBe(10);
    expect(limited.seen).toHaveLength(1);
    // the next second is a new window
    await new Promise((r) => setTimeout(r, 1000));
    expect(await join(socket, [p.id])).toEqual([p.id]);
  });
});

describe('rooms of every kind are authorised by their kind', () => {
  it('a socket joins its own user room only; another user’s room is refused and its events never arrive', async () => {
    const alice = await makeUser(a.deps.db);
    const bob = await makeUser(a.deps.db);
    const aliceSocket = await open(b, alice);
    const bobSocket = await open(a, bob);
    const visitor = await open(b, null);
    expect(await join(bobSocket, [alice.id, bob.id], 'user')).toEqual([bob.id]);
    expect(await join(visitor, [alice.id, bob.id], 'user')).toEqual([]);
    const toAlice = record(aliceSocket, 'unread:changed');
    const toBob = record(bobSocket, 'unread:changed');
    const toVisitor = record(visitor, 'unread:changed');

    // the unread count is pushed to the user's room, across servers, with the new count
    await a.deps.db
      .insertInto('messages')
      .values([
        { sender_id: bob.id, recipient_id: alice.id, content: 'one' },
        { sender_id: bob.id, recipient_id: alice.id, content: 'two' },
      ])
      .execute();
    expect(await announceUnreadCount(a.deps, alice.id)).toBe(2);
    expect(await toAlice.next()).toEqual({ count: 2 });
    await settle();
    expect(toBob.seen).toEqual([]);
    expect(toVisitor.seen).toEqual([]);

    // leaving one's own room is not possible: it is the handshake's, and carries the user's events
    const left = await new Promise<RoomAck>((resolve) => aliceSocket.emit('room:leave', { kind: 'user', ids: [alice.id] }, resolve));
    expect(left).toEqual({ kind: 'user', ids: [] });
    await a.deps.db.updateTable('messages').set({ read_at: new Date() }).where('recipient_id', '=', alice.id).execute();
    expect(await announceUnreadCount(b.deps, alice.id)).toBe(0);
    expect(await toAlice.next()).toEqual({ count: 0 });
  });

  it('a post room follows the access rule: a post the user may not see is refused', async () => {
    const privateCreator = await makeUser(a.deps.db, { isCreator: true, visibility: 'private' });
    const draftOwner = await makeUser(a.deps.db, { isCreator: true });
    const privatePost = await makePost(a.deps.db, null, { creatorId: privateCreator.id, kind: null });
    const draft = await makePost(a.deps.db, null, { creatorId: draftOwner.id, kind: null, status: 'draft' });
    const fan = await open(a, await makeUser(a.deps.db));
    expect(await join(fan, [privatePost.id, draft.id])).toEqual([]);
    // the same ids are joined by those who may see them (the refusal is the rule, not the ids)
    expect(await join(await open(b, privateCreator), [privatePost.id, draft.id])).toEqual([privatePost.id]);
    expect(await join(await open(b, draftOwner), [privatePost.id, draft.id])).toEqual([draft.id]);
  });

  it('a conversation room is refused to everyone until direct messages exist', async () => {
    const alice = await makeUser(a.deps.db);
    const conversationId = '00000000-0000-4000-8000-000000000001';
    for (const socket of [await open(a, alice), await open(b, null)]) {
      const ack = await new Promise<RoomAck>((resolve) => socket.emit('room:join', { kind: 'conversation', ids: [conversationId] }, resolve));
      expect(ack).toEqual({ kind: 'conversation', ids: [] });
    }
  });
});
