import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePost, makeUser } from '../helpers/factories';
import { join, record, socketPool } from '../helpers/sockets';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

// Issue 23 items 3 and 4: a block acts at once, and sockets follow permission changes after the
// join, on every server copy. Two server processes share one database and one Redis prefix.
let a: TestServer;
let b: TestServer;
const sockets = socketPool();

beforeAll(async () => {
  a = await startTestServer({ workerQueues: [] });
  b = await startTestServer({ shareWith: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});
afterEach(() => sockets.closeAll());

const cid = () => randomUUID();

describe('a block is a block, at once (issue 23 §3)', () => {
  it('nothing the blocked user does reaches the blocker after the block: edits, reactions, typing, read receipts, presence', async () => {
    const [blocker, blocked, watcher] = await Promise.all([makeUser(a.deps.db), makeUser(a.deps.db), makeUser(a.deps.db)]);
    const asBlocker = await clientAs(a, blocker.id);
    const asBlocked = await clientAs(b, blocked.id); // the blocked user on the other server copy
    const fromBlocked = await asBlocked.trpc.messages.send.mutate({ username: blocker.username, content: 'hi', clientId: cid() });
    const first = await asBlocker.trpc.messages.send.mutate({ username: blocked.username, content: 'one', clientId: cid() });
    const second = await asBlocker.trpc.messages.send.mutate({ username: blocked.username, content: 'two', clientId: cid() });

    // the blocked user's tab watches the blocker's presence; the blocker's tab is on server A
    const blockedSocket = await sockets.open(b, blocked);
    expect(await join(blockedSocket, [blocker.id], 'presence')).toEqual([blocker.id]);
    const presence = record(blockedSocket, 'presence');
    const blockerSocket = await sockets.open(a, blocker);
    await presence.next((p) => p.userId === blocker.id && p.online);

    const updated = record(blockerSocket, 'message:updated');
    const reactions = record(blockerSocket, 'message:reactions');
    const typing = record(blockerSocket, 'typing');
    const reads = record(blockerSocket, 'message:read');
    const news = record(blockerSocket, 'message:new');

    // before the block each of these reaches the blocker (so the checks below could see them)
    await asBlocked.trpc.messages.edit.mutate({ id: fromBlocked.id, content: 'hi, edited' });
    await updated.next((e) => e.message.id === fromBlocked.id);
    await asBlocked.trpc.messages.react.mutate({ id: first.id, emoji: '❤️' });
    await reactions.next((e) => e.messageId === first.id);
    await asBlocked.trpc.messages.typing.mutate({ username: blocker.username });
    await typing.next((e) => e.userId === blocked.id);
    await asBlocked.trpc.messages.markRead.mutate({ ids: [first.id] });
    await reads.next((e) => e.messageIds.includes(first.id));
    const counts = { updated: updated.seen.length, reactions: reactions.seen.length, typing: typing.seen.length, reads: reads.seen.length };

    // the block: both users' tabs hear it, the blocked user's socket leaves the presence room
    const blockerState = record(blockerSocket, 'messaging:changed');
    const blockedState = record(blockedSocket, 'messaging:changed');
    const revoked = record(blockedSocket, 'rooms:revoked');
    await asBlocker.trpc.messages.block.mutate({ username: blocked.username });
    expect(await blockerState.next()).toEqual({ partnerId: blocked.id, messaging: 'blocked-by-you' });
    expect(await blockedState.next()).toEqual({ partnerId: blocker.id, messaging: 'unavailable' });
    expect(await revoked.next()).toEqual({ kind: 'presence', ids: [blocker.id] });

    // after it: refused in clear words, or (typing, receipts) not passed on
    const refused = 'You cannot message this user';
    await expectTrpcError(asBlocked.trpc.messages.edit.mutate({ id: fromBlocked.id, content: 'again' }), 'FORBIDDEN', refused);
    await expectTrpcError(asBlocked.trpc.messages.react.mutate({ id: second.id, emoji: '👍' }), 'FORBIDDEN', refused);
    await expectTrpcError(asBlocked.trpc.messages.send.mutate({ username: blocker.username, content: 'hey', clientId: cid() }), 'FORBIDDEN', refused);
    await asBlocked.trpc.messages.typing.mutate({ username: blocker.username });
    expect((await asBlocked.trpc.messages.markRead.mutate({ ids: [second.id] })).ids).toEqual([second.id]);
    // a marker from someone else, sent after all of the above, arrives; nothing of the blocked user did
    const asWatcher = await clientAs(b, watcher.id);
    const marker = await asWatcher.trpc.messages.send.mutate({ username: blocker.username, content: 'marker', clientId: cid() });
    await news.next((e) => e.message.id === marker.id);
    expect({ updated: updated.seen.length, reactions: reactions.seen.length, typing: typing.seen.length, reads: reads.seen.length }).toEqual(counts);
    // the blocker's thread does not say whether the blocked user read anything
    const thread = await asBlocker.trpc.messages.thread.query({ username: blocked.username });
    expect(thread.messages.find((m) => m.id === second.id)?.readAt).toBeNull();
    expect((await asBlocked.trpc.messages.partner.query({ username: blocker.username })).online).toBeNull();

    // presence: a socket still allowed hears the blocker go offline; the blocked user's does not
    const watcherSocket = await sockets.open(a, watcher);
    expect(await join(watcherSocket, [blocker.id], 'presence')).toEqual([blocker.id]);
    const watched = record(watcherSocket, 'presence');
    expect(await join(blockedSocket, [blocker.id], 'presence')).toEqual([]);
    blockerSocket.disconnect();
    await watched.next((p) => p.userId === blocker.id && !p.online);
    expect(presence.seen.filter((p) => !p.online)).toEqual([]);
  });
});

describe('sockets follow permission changes, not only the join (issue 23 §4)', () => {
  it('a socket in a post room before its creator went private stops hearing its comments, on another server copy', async () => {
    const creator = await makeUser(a.deps.db, { isCreator: true });
    const [fan, commenter] = await Promise.all([makeUser(a.deps.db), makeUser(a.deps.db)]);
    const post = await makePost(a.deps.db, null, { creatorId: creator.id, kind: null });
    const asCreator = await clientAs(a, creator.id);

    const fanSocket = await sockets.open(b, fan);
    const creatorSocket = await sockets.open(b, creator);
    expect(await join(fanSocket, [post.id], 'post')).toEqual([post.id]);
    expect(await join(creatorSocket, [post.id], 'post')).toEqual([post.id]);
    const fanHears = record(fanSocket, 'post:comment');
    const creatorHears = record(creatorSocket, 'post:comment');

    const before = await (await clientAs(a, commenter.id)).trpc.comments.add.mutate({ postId: post.id, text: 'public still' });
    await fanHears.next((e) => e.comment.id === before.comment.id);

    const revoked = record(fanSocket, 'rooms:revoked');
    await asCreator.trpc.settings.savePrivacy.mutate({ profileVisibility: 'private', showOnlineStatus: true, allowFriendRequests: true });
    expect(await revoked.next()).toEqual({ kind: 'post', ids: [post.id] });

    const after = await asCreator.trpc.comments.add.mutate({ postId: post.id, text: 'only for me now' });
    await creatorHears.next((e) => e.comment.id === after.comment.id);
    expect(fanHears.seen.map((e) => e.comment.text)).toEqual(['public still']);
    // and the socket cannot simply ask again
    expect(await join(fanSocket, [post.id], 'post')).toEqual([]);
  });

  it('hiding the account takes other sockets out of its presence room; its own stay in its post rooms', async () => {
    const [creator, fan] = await Promise.all([makeUser(a.deps.db, { isCreator: true }), makeUser(a.deps.db)]);
    const post = await makePost(a.deps.db, null, { creatorId: creator.id, kind: null });
    const fanSocket = await sockets.open(a, fan);
    const creatorSocket = await sockets.open(b, creator);
    expect(await join(fanSocket, [creator.id], 'presence')).toEqual([creator.id]);
    expect(await join(fanSocket, [post.id], 'post')).toEqual([post.id]);
    expect(await join(creatorSocket, [post.id], 'post')).toEqual([post.id]);
    const revoked = record(fanSocket, 'rooms:revoked');
    const fanHears = record(fanSocket, 'post:comment');
    const creatorHears = record(creatorSocket, 'post:comment');
    const asCreator = await clientAs(b, creator.id);
    const before = await asCreator.trpc.comments.add.mutate({ postId: post.id, text: 'before hiding' });
    await fanHears.next((e) => e.comment.id === before.comment.id);

    await asCreator.trpc.account.setHidden.mutate({ hidden: true });
    expect(await revoked.next((e) => e.kind === 'presence')).toEqual({ kind: 'presence', ids: [creator.id] });
    expect(await revoked.next((e) => e.kind === 'post')).toEqual({ kind: 'post', ids: [post.id] });
    const after = await asCreator.trpc.comments.add.mutate({ postId: post.id, text: 'while hidden' });
    await creatorHears.next((e) => e.comment.id === after.comment.id);
    expect(fanHears.seen.map((e) => e.comment.text)).toEqual(['before hiding']);
  });
});
