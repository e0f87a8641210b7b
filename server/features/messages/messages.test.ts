import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSessionCookie, makeUser } from '../../../tests/helpers/factories';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import type { AppRouter } from '../../trpc/router';

let app: TestServer;

beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.close();
});

async function signedInAs(userId: string) {
  const client = app.client();
  const { token } = await makeSessionCookie(app.deps.db, userId);
  client.cookies().set('session', token);
  return client;
}

describe('messages.unreadCount', () => {
  it('counts unread messages to me only', async () => {
    const db = app.deps.db;
    const me = await makeUser(db);
    const friend = await makeUser(db);
    const other = await makeUser(db);
    const client = await signedInAs(me.id);
    expect(await client.trpc.messages.unreadCount.query()).toBe(0);

    await db
      .insertInto('messages')
      .values([
        { sender_id: friend.id, recipient_id: me.id, content: 'one' },
        { sender_id: friend.id, recipient_id: me.id, content: 'two' },
        { sender_id: other.id, recipient_id: me.id, content: 'three' },
        { sender_id: other.id, recipient_id: me.id, content: 'read', read_at: new Date() },
        { sender_id: me.id, recipient_id: friend.id, content: 'mine, unread by friend' },
        { sender_id: friend.id, recipient_id: other.id, content: 'not for me' },
      ])
      .execute();

    expect(await client.trpc.messages.unreadCount.query()).toBe(3);
    expect(await (await signedInAs(friend.id)).trpc.messages.unreadCount.query()).toBe(1);
  });

  it('needs a session', async () => {
    const error = await app.client().trpc.messages.unreadCount.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('UNAUTHORIZED');
  });
});
