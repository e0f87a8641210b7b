import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto } from '../../../common/message-dtos';
import type { ServerToClientEvents } from '../../../common/socket-events';
import { makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { socketPool, trpcAsTab, type ClientSocket } from '../../../tests/helpers/sockets';
import { startTestServer, type TestClient, type TestServer } from '../../../tests/helpers/test-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

let app: TestServer;
const sockets = socketPool();

beforeAll(async () => {
  // a quiet period of 1 s: the new-message mail (one per conversation and period) goes out at once
  app = await startTestServer({ workerQueues: ['mail'], env: { MESSAGE_MAIL_QUIET_MS: '1000' } });
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => sockets.closeAll());

const cid = () => randomUUID();

async function people(n: number): Promise<{ users: MadeUser[]; clients: TestClient[] }> {
  const users = await Promise.all(Array.from({ length: n }, () => makeUser(app.deps.db)));
  const clients = await Promise.all(users.map((u) => clientAs(app, u.id)));
  return { users, clients };
}

function nextEvent<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E, match: (p: Parameters<ServerToClientEvents[E]>[0]) => boolean = () => true) {
  return new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 10_000);
    const listener = (payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      (socket.off as (e: string, fn: unknown) => void)(event, listener);
      resolve(payload);
    };
    (socket.on as (e: string, fn: unknown) => void)(event, listener);
  });
}

/** Everything a socket hears of one event, to prove later that something did NOT arrive. */
function record<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E) {
  const heard: Parameters<ServerToClientEvents[E]>[0][] = [];
  (socket.on as (e: string, fn: unknown) => void)(event, (p: Parameters<ServerToClientEvents[E]>[0]) => heard.push(p));
  return heard;
}

describe('messages.unreadCount', () => {
  it('counts unread messages to me only', async () => {
    const db = app.deps.db;
    const { users: [me, friend, other], clients: [client] } = await people(3);
    expect(await client!.trpc.messages.unreadCount.query()).toBe(0);
    await db
      .insertInto('messages')
      .values([
        { sender_id: friend!.id, recipient_id: me!.id, content: 'one' },
        { sender_id: friend!.id, recipient_id: me!.id, content: 'two' },
        { sender_id: other!.id, recipient_id: me!.id, content: 'three' },
        { sender_id: other!.id, recipient_id: me!.id, content: 'read', read_at: new Date() },
        { sender_id: me!.id, recipient_id: friend!.id, content: 'mine, unread by friend' },
        { sender_id: friend!.id, recipient_id: other!.id, content: 'not for me' },
      ])
      .execute();
    expect(await client!.trpc.messages.unreadCount.query()).toBe(3);
    expect(await (await clientAs(app, friend!.id)).trpc.messages.unreadCount.query()).toBe(1);
  });

  it('needs a session, and says so in the spec words', async () => {
    await expectTrpcError(app.client().trpc.messages.unreadCount.query(), 'UNAUTHORIZED', 'Not authenticated');
    await expectTrpcError(app.client().trpc.messages.chatList.query({}), 'UNAUTHORIZED', 'Not authenticated');
  });
});

describe('a conversation', () => {
  it('sends trimmed text, shows it in both threads and chat lists with unread counts, and marks it read', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    const sent = await asA!.trpc.messages.send.mutate({ username: b!.username, content: '  hello there \n', clientId: cid() });
    expect(sent).toMatchObject({ senderId: a!.id, recipientId: b!.id, content: 'hello there', readAt: null, reactions: [] });

    const threadOfB = await asB!.trpc.messages.thread.query({ username: a!.username });
    expect(threadOfB.messages.map((m) => m.content)).toEqual(['hello there']);
    const listOfB = await asB!.trpc.messages.chatList.query({});
    expect(listOfB.chats).toEqual([
      expect.objectContaining({
        partner: expect.objectContaining({ id: a!.id, username: a!.username }),
        lastMessage: expect.objectContaining({ id: sent.id, content: 'hello there' }),
        unreadCount: 1,
      }),
    ]);
    expect((await asA!.trpc.messages.chatList.query({})).chats[0]).toMatchObject({ partner: { id: b!.id }, unreadCount: 0 });
    expect(await asB!.trpc.messages.unreadCount.query()).toBe(1);

    const read = await asB!.trpc.messages.markRead.mutate({ ids: [sent.id] });
    expect(read.ids).toEqual([sent.id]);
    expect(await asB!.trpc.messages.unreadCount.query()).toBe(0);
    const [seenByA] = (await asA!.trpc.messages.thread.query({ username: b!.username })).messages;
    expect(seenByA!.readAt).not.toBeNull();
  });

  it('is idempotent by clientId: a repeated send returns the same message and makes no second row', async () => {
    const { users: [a, b], clients: [asA] } = await people(2);
    const clientId = cid();
    const [first, second] = await Promise.all([
      asA!.trpc.messages.send.mutate({ username: b!.username, content: 'once', clientId }),
      asA!.trpc.messages.send.mutate({ username: b!.username, content: 'once', clientId }),
    ]);
    const third = await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'once', clientId });
    expect(second.id).toBe(first.id);
    expect(third.id).toBe(first.id);
    const rows = await app.deps.db.selectFrom('messages').select('id').where('sender_id', '=', a!.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses empty text, unknown and invisible recipients, and edits to empty text', async () => {
    const { users: [, b], clients: [asA, asB] } = await people(2);
    await expectTrpcError(asA!.trpc.messages.send.mutate({ username: b!.username, content: '   ', clientId: cid() }), 'BAD_REQUEST', 'Message cannot be empty');
    await expectTrpcError(asA!.trpc.messages.send.mutate({ username: 'nobody-here', content: 'hi', clientId: cid() }), 'NOT_FOUND', 'Could not find recipient');
    const hidden = await makeUser(app.deps.db, { visibility: 'private' });
    // a private profile reads exactly like an unknown one
    await expectTrpcError(asA!.trpc.messages.send.mutate({ username: hidden.username, content: 'hi', clientId: cid() }), 'NOT_FOUND', 'Could not find recipient');
    await expectTrpcError(asA!.trpc.messages.partner.query({ username: hidden.username }), 'NOT_FOUND', 'User not found');
    await expectTrpcError(asA!.trpc.messages.partner.query({ username: 'nobody-here' }), 'NOT_FOUND', 'User not found');
    await expectTrpcError(asA!.trpc.messages.thread.query({ username: hidden.username }), 'NOT_FOUND', 'User not found');

    const mine = await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'typo', clientId: cid() });
    await expectTrpcError(asA!.trpc.messages.edit.mutate({ id: mine.id, content: '  ' }), 'BAD_REQUEST', 'Message cannot be empty');
    void asB;
  });
});

describe("another user's ids", () => {
  it('a third user cannot read, edit, delete, react to, mark read, catch up on or report the messages of two others', async () => {
    const { users: [a, b], clients: [asA, asB, asC] } = await people(3);
    const sent = await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'private words', clientId: cid() });

    // C's "thread" with A is C's own (empty) conversation, never A's with B
    expect((await asC!.trpc.messages.thread.query({ username: a!.username })).messages).toEqual([]);
    expect((await asC!.trpc.messages.chatList.query({})).chats).toEqual([]);
    await expectTrpcError(asC!.trpc.messages.edit.mutate({ id: sent.id, content: 'hacked' }), 'NOT_FOUND', 'Message not found');
    await expectTrpcError(asC!.trpc.messages.delete.mutate({ id: sent.id }), 'NOT_FOUND', 'Message not found');
    await expectTrpcError(asC!.trpc.messages.react.mutate({ id: sent.id, emoji: '🔥' }), 'NOT_FOUND', 'Message not found');
    await expectTrpcError(asC!.trpc.messages.since.query({ afterId: sent.id }), 'NOT_FOUND', 'Message not found');
    await expectTrpcError(asC!.trpc.messages.report.mutate({ messageId: sent.id, reason: 'spam' }), 'NOT_FOUND', 'Message not found');
    expect(await asC!.trpc.messages.markRead.mutate({ ids: [sent.id] })).toMatchObject({ ids: [] });
    // a reply quoting someone else's message is refused
    await expectTrpcError(
      asC!.trpc.messages.send.mutate({ username: a!.username, content: 'quote', replyToId: sent.id, clientId: cid() }),
      'BAD_REQUEST',
      'The message you replied to is not in this conversation',
    );

    // the partner may react and read, but edit and delete only their own
    await expectTrpcError(asB!.trpc.messages.edit.mutate({ id: sent.id, content: 'changed' }), 'FORBIDDEN', 'You can only edit your own messages');
    await expectTrpcError(asB!.trpc.messages.delete.mutate({ id: sent.id }), 'FORBIDDEN', 'You can only delete your own messages');
    // the sender cannot mark their own message read for the recipient
    expect(await asA!.trpc.messages.markRead.mutate({ ids: [sent.id] })).toMatchObject({ ids: [] });

    const row = await app.deps.db.selectFrom('messages').selectAll().where('id', '=', sent.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content: 'private words', read_at: null, edited_at: null });
    expect(await app.deps.db.selectFrom('message_reactions').select('id').where('message_id', '=', sent.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('message_reports').select('id').execute()).toEqual([]);
  });
});

describe('edit, delete, react, reply, report', () => {
  it('lets the author edit and delete, both sides react (one of each emoji, toggled), replies keep their place', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    const first = await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'first', clientId: cid() });
    const reply = await asB!.trpc.messages.send.mutate({ username: a!.username, content: 'answer', replyToId: first.id, clientId: cid() });
    expect(reply.replyTo).toMatchObject({ id: first.id, senderId: a!.id, content: 'first' });

    const edited = await asA!.trpc.messages.edit.mutate({ id: first.id, content: ' first, edited ' });
    expect(edited).toMatchObject({ content: 'first, edited' });
    expect(edited.editedAt).not.toBeNull();

    await asB!.trpc.messages.react.mutate({ id: first.id, emoji: '🔥' });
    const both = await asA!.trpc.messages.react.mutate({ id: first.id, emoji: '🔥' });
    expect(both.reactions).toEqual([{ emoji: '🔥', count: 2, mine: true }]);
    const toggled = await asA!.trpc.messages.react.mutate({ id: first.id, emoji: '🔥' });
    expect(toggled.reactions).toEqual([{ emoji: '🔥', count: 1, mine: false }]);
    await expectTrpcError(asA!.trpc.messages.react.mutate({ id: first.id, emoji: '💩' as '🔥' }), 'BAD_REQUEST');

    const report = await asB!.trpc.messages.report.mutate({ messageId: first.id, reason: 'rude' });
    expect(report.id).toBeTruthy();

    expect(await asA!.trpc.messages.delete.mutate({ id: first.id })).toEqual({ id: first.id });
    const thread = await asB!.trpc.messages.thread.query({ username: a!.username });
    expect(thread.messages.map((m) => [m.content, m.replyToId, m.replyTo])).toEqual([['answer', null, null]]);
    // the chat list now shows the message before
    expect((await asA!.trpc.messages.chatList.query({})).chats[0]!.lastMessage).toMatchObject({ id: reply.id });
    // the report keeps the text as it was reported
    const kept = await app.deps.db.selectFrom('message_reports').selectAll().where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ message_id: null, content: 'first, edited', reason: 'rude', status: 'open' });

    // admins see open reports and close them; nobody else may
    await expectTrpcError(asB!.trpc.messages.adminReports.query({}), 'FORBIDDEN');
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    const open = await asAdmin.trpc.messages.adminReports.query({});
    expect(open.reports.find((r) => r.id === report.id)).toMatchObject({ reason: 'rude', reporter: { id: b!.id }, sender: { id: a!.id } });
    await asAdmin.trpc.messages.closeReport.mutate({ id: report.id });
    expect((await asAdmin.trpc.messages.adminReports.query({})).reports.find((r) => r.id === report.id)).toBeUndefined();
  });

  it('deleting the only message removes the conversation from both lists', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    const only = await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'oops', clientId: cid() });
    expect(await asB!.trpc.messages.unreadCount.query()).toBe(1);
    await asA!.trpc.messages.delete.mutate({ id: only.id });
    expect((await asA!.trpc.messages.chatList.query({})).chats).toEqual([]);
    expect((await asB!.trpc.messages.chatList.query({})).chats).toEqual([]);
    expect(await asB!.trpc.messages.unreadCount.query()).toBe(0);
    void a;
  });
});

describe('paging', () => {
  it('pages a thread 20 at a time, oldest first within a page, with no duplicate or skip while new messages arrive', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    // 45 messages in one burst: many share a millisecond, which keyset paging must survive
    const base = Date.now() - 60_000;
    await app.deps.db
      .insertInto('messages')
      .values(Array.from({ length: 45 }, (_, i) => ({
        sender_id: i % 2 ? a!.id : b!.id,
        recipient_id: i % 2 ? b!.id : a!.id,
        content: `m${i}`,
        created_at: new Date(base + Math.floor(i / 3)).toISOString(),
      })))
      .execute();
    const first = await asA!.trpc.messages.thread.query({ username: b!.username });
    expect(first.messages).toHaveLength(20);
    // messages of one millisecond come in id order: what matters is that the page is the newest 20, oldest first
    const byTime = (list: MessageDto[]) => list.every((m, i) => i === 0 || list[i - 1]!.createdAt <= m.createdAt);
    expect(byTime(first.messages)).toBe(true);
    // the newest 20: nothing but m24..m44 (m24-m26 share a millisecond, the page cuts that group by id)
    expect(first.messages.every((m) => Number(m.content!.slice(1)) >= 24)).toBe(true);
    // new messages while paging back
    await asB!.trpc.messages.send.mutate({ username: a!.username, content: 'new 1', clientId: cid() });
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'new 2', clientId: cid() });
    const second = await asA!.trpc.messages.thread.query({ username: b!.username, cursor: first.nextCursor });
    const third = await asA!.trpc.messages.thread.query({ username: b!.username, cursor: second.nextCursor });
    expect(third.nextCursor).toBeNull();
    const all = [...third.messages, ...second.messages, ...first.messages];
    expect(byTime(all)).toBe(true);
    // every one of the 45 exactly once; the two new ones are not in the older pages
    expect(all.map((m) => m.content).sort()).toEqual(Array.from({ length: 45 }, (_, i) => `m${i}`).sort());
    expect(new Set(all.map((m) => m.id)).size).toBe(45);
  });

  it('pages the chat list newest conversation first in one statement per page', async () => {
    const { users: [me], clients: [asMe] } = await people(1);
    const partners = await Promise.all(Array.from({ length: 25 }, () => makeUser(app.deps.db)));
    for (const [i, p] of partners.entries()) {
      await app.deps.db.insertInto('messages').values({ sender_id: p.id, recipient_id: me!.id, content: `from ${i}` }).execute();
      await app.deps.db
        .insertInto('conversations')
        .values([
          { user_id: me!.id, partner_id: p.id, last_message_at: new Date(Date.now() - (25 - i) * 1000) },
          { user_id: p.id, partner_id: me!.id, last_message_at: new Date(Date.now() - (25 - i) * 1000) },
        ])
        .execute();
    }
    app.queries.reset();
    const page1 = await asMe!.trpc.messages.chatList.query({});
    const chatQueries = app.queries.list().filter((q) => q.includes('conversations'));
    expect(chatQueries).toHaveLength(1);
    const page2 = await asMe!.trpc.messages.chatList.query({ cursor: page1.nextCursor });
    expect(page1.chats).toHaveLength(20);
    expect(page2.nextCursor).toBeNull();
    const order = [...page1.chats, ...page2.chats].map((c) => c.partner.id);
    expect(order).toEqual([...partners].reverse().map((p) => p.id));
  });
});

describe('blocking and the rate limit', () => {
  it('a blocked user can no longer send; both see why in the words allowed', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'hi', clientId: cid() });
    expect(await asB!.trpc.messages.block.mutate({ username: a!.username })).toEqual({ messaging: 'blocked-by-you' });
    await expectTrpcError(asA!.trpc.messages.send.mutate({ username: b!.username, content: 'again', clientId: cid() }), 'FORBIDDEN', 'You cannot message this user');
    await expectTrpcError(asB!.trpc.messages.send.mutate({ username: a!.username, content: 'me neither', clientId: cid() }), 'FORBIDDEN');
    expect(await asA!.trpc.messages.partner.query({ username: b!.username })).toMatchObject({ messaging: 'unavailable', online: null });
    expect(await asB!.trpc.messages.partner.query({ username: a!.username })).toMatchObject({ messaging: 'blocked-by-you' });
    // the existing thread stays readable
    expect((await asA!.trpc.messages.thread.query({ username: b!.username })).messages).toHaveLength(1);
    expect(await asB!.trpc.messages.unblock.mutate({ username: a!.username })).toEqual({ messaging: 'available' });
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'again', clientId: cid() });
  });

  it('allows 30 messages a minute per user, then answers with a clear message', async () => {
    const { users: [, b], clients: [asA] } = await people(2);
    for (let i = 0; i < 30; i++) await asA!.trpc.messages.send.mutate({ username: b!.username, content: `n${i}`, clientId: cid() });
    const error = await expectTrpcError(
      asA!.trpc.messages.send.mutate({ username: b!.username, content: 'one too many', clientId: cid() }),
      'TOO_MANY_REQUESTS',
      'You are sending messages too fast. Please wait a moment.',
    );
    expect((error.data as unknown as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('live', () => {
  it("delivers a new message to the partner and the sender's other tab, not the sending tab; reads, edits, reactions and deletes too", async () => {
    const { users: [a, b], clients: [asA] } = await people(2);
    const [tab1, tab2, partner] = await Promise.all([sockets.open(app, a!), sockets.open(app, a!), sockets.open(app, b!)]);
    const heardByTab1 = record(tab1, 'message:new');
    const asTab1 = trpcAsTab(app, asA!, tab1.id);

    const toPartner = nextEvent(partner, 'message:new');
    const toTab2 = nextEvent(tab2, 'message:new');
    const badge = nextEvent(partner, 'unread:changed', (e) => e.count === 1);
    const sent = await asTab1.messages.send.mutate({ username: b!.username, content: 'live!', clientId: cid() });
    expect((await toPartner).message).toMatchObject({ id: sent.id, content: 'live!' });
    expect((await toTab2).message.id).toBe(sent.id);
    expect(await badge).toEqual({ count: 1 });

    const asB = await clientAs(app, b!.id);
    const read = nextEvent(tab1, 'message:read');
    await asB.trpc.messages.markRead.mutate({ ids: [sent.id] });
    expect(await read).toMatchObject({ messageIds: [sent.id], readerId: b!.id, senderId: a!.id });

    const edited = nextEvent(partner, 'message:updated');
    await asTab1.messages.edit.mutate({ id: sent.id, content: 'live, edited' });
    expect((await edited).message).toMatchObject({ id: sent.id, content: 'live, edited' });

    const reactions = nextEvent(tab2, 'message:reactions');
    await asB.trpc.messages.react.mutate({ id: sent.id, emoji: '🔥' });
    expect(await reactions).toEqual({ messageId: sent.id, reactions: [{ emoji: '🔥', count: 1, mine: false }] });

    const deleted = nextEvent(partner, 'message:deleted');
    await asTab1.messages.delete.mutate({ id: sent.id });
    expect(await deleted).toEqual({ messageId: sent.id, senderId: a!.id, recipientId: b!.id });
    // the sending tab applied its change itself: it heard nothing of its own message
    expect(heardByTab1).toEqual([]);
  });

  it('catches up after a reconnect by the last message id seen: nothing lost, nothing doubled', async () => {
    const { users: [a, b], clients: [asA, asB] } = await people(2);
    const seen = await asB!.trpc.messages.send.mutate({ username: a!.username, content: 'seen', clientId: cid() });
    // A's socket is away while three messages are sent
    const missed = [];
    for (const text of ['one', 'two', 'three']) missed.push(await asB!.trpc.messages.send.mutate({ username: a!.username, content: text, clientId: cid() }));
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'mine too', clientId: cid() });
    const caught = await asA!.trpc.messages.since.query({ afterId: seen.id });
    expect(caught.messages.map((m: MessageDto) => m.content)).toEqual(['one', 'two', 'three', 'mine too']);
    expect(caught.hasMore).toBe(false);
    expect((await asA!.trpc.messages.since.query({ afterId: caught.messages.at(-1)!.id })).messages).toEqual([]);
  });

  it('tells the partner of typing and online state only when they show their online status', async () => {
    const { users: [a, b], clients: [asA] } = await people(2);
    const bSocket = await sockets.open(app, b!);
    const typing = nextEvent(bSocket, 'typing');
    await asA!.trpc.messages.typing.mutate({ username: b!.username });
    expect(await typing).toMatchObject({ userId: a!.id });

    const aSocket = await sockets.open(app, a!);
    const ack = await new Promise<{ ids: string[] }>((resolve) => aSocket.emit('room:join', { kind: 'presence', ids: [b!.id] }, resolve));
    expect(ack.ids).toEqual([b!.id]);
    expect(await asA!.trpc.messages.partner.query({ username: b!.username })).toMatchObject({ online: true, messaging: 'available' });
    const offline = nextEvent(aSocket, 'presence', (e) => e.userId === b!.id && !e.online);
    bSocket.disconnect();
    await offline;
    expect((await asA!.trpc.messages.partner.query({ username: b!.username })).online).toBe(false);

    // B hides their online status: no presence, no room, no typing from them
    await app.deps.db.updateTable('privacy_settings').set({ show_online_status: false }).where('user_id', '=', b!.id).execute();
    expect((await asA!.trpc.messages.partner.query({ username: b!.username })).online).toBeNull();
    const refused = await new Promise<{ ids: string[] }>((resolve) => aSocket.emit('room:join', { kind: 'presence', ids: [b!.id] }, resolve));
    expect(refused.ids).toEqual([]);
    const heard = record(aSocket, 'typing');
    await (await clientAs(app, b!.id)).trpc.messages.typing.mutate({ username: a!.username });
    const marker = nextEvent(aSocket, 'message:new');
    await (await clientAs(app, b!.id)).trpc.messages.send.mutate({ username: a!.username, content: 'marker', clientId: cid() });
    await marker;
    expect(heard).toEqual([]);
  });
});

describe('e-mail to an offline recipient', () => {
  it('mails a new message only when the recipient is offline and allows activity mail', async () => {
    const { users: [, b, c], clients: [asA] } = await people(3);
    await app.deps.db.updateTable('notification_settings').set({ email_notifications: false }).where('user_id', '=', c!.id).execute();
    const online = await sockets.open(app, b!);
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'you are online', clientId: cid() });
    online.disconnect();
    await asA!.trpc.messages.send.mutate({ username: c!.username, content: 'you said no mail', clientId: cid() });
    // wait for B's socket to count as gone, then write while B is offline
    const { onlineUsers } = await import('../../../domain/presence/presence');
    for (let i = 0; i < 50 && (await onlineUsers(app.deps.redis, app.deps.config.REDIS_PREFIX, [b!.id])).size; i++) await new Promise((r) => setTimeout(r, 50));
    await asA!.trpc.messages.send.mutate({ username: b!.username, content: 'you are away', clientId: cid() });
    const mails = (await app.outbox()).filter((m) => m.to === b!.email || m.to === c!.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: b!.email });
    expect(mails[0]!.subject).toMatch(/new messages? from/i);
    expect(mails[0]!.text).not.toContain('you are away');
  });
});
