import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTORY_PASSWORD, makeUser } from '../helpers/factories';
import { startPrivateRedis, untilAnswering } from '../helpers/private-redis';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

// Two server copies over one database and one Redis, as behind a load balancer. Each answers a
// session it resolved a moment ago from memory (core/sessions/session-cache.ts); a session ended,
// or a user changed, through one copy must be refused (or seen changed) by the other at once:
// well within the cache's own lifetime (SESSION_CACHE_MS, 5 s). Redis writes the PUBLISH's reply
// to the copy that ended it and the message to the other copy's subscriber one after the other,
// so on a loaded machine the next request can, rarely, reach the other copy a moment before the
// message: each check waits for the change at most FORGET_WITHIN_MS, far less than the cache
// keeps an entry, so a copy that was never told still fails it.
const FORGET_WITHIN_MS = 1_000;
const soon = { timeout: FORGET_WITHIN_MS, intervals: [20, 50, 100] };

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer({ workerQueues: [] });
  b = await startTestServer({ shareWith: a });
}, 60_000);

afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** The Socket.IO adapter's own connections (server/realtime/socket-server.ts), which reconnect on their own. */
function adapterConnections(server: TestServer): Redis[] {
  const adapter = server.app.io.of('/').adapter as unknown as { pubClient: Redis; subClient: Redis };
  return [adapter.pubClient, adapter.subClient];
}

const sessionReads = (server: TestServer) => server.queries.list().length - server.queries.withoutSession().length;

/** The same browser's cookie, sent to the other copy. */
function sameCookieOn(server: TestServer, client: TestClient): TestClient {
  const other = server.client();
  other.cookies().set('session', client.cookies().get('session')!);
  return other;
}

/** Resolves the session on `server` twice; the second answer comes from its cache (no session read). */
async function cachedOn(server: TestServer, client: TestClient, userId: string) {
  expect(await client.trpc.auth.me.query()).toMatchObject({ id: userId });
  server.queries.reset();
  expect(await client.trpc.auth.me.query()).toMatchObject({ id: userId });
  expect(sessionReads(server)).toBe(0);
}

describe('session cache across two server copies', () => {
  it('a session signed out through one copy is refused at once by the other, which had it cached', async () => {
    const user = await makeUser(a.deps.db);
    const onA = await clientAs(a, user.id);
    const onB = sameCookieOn(b, onA);
    await cachedOn(b, onB, user.id);

    await onA.trpc.auth.signOut.mutate({ scope: 'local' });
    await expect.poll(() => onB.trpc.auth.me.query(), soon).toBeNull();
    await expectTrpcError(onB.trpc.security.sessions.query(), 'UNAUTHORIZED');
  });

  it('a password changed through one copy ends the other sessions on the other copy at once', async () => {
    const user = await makeUser(a.deps.db);
    const here = await clientAs(a, user.id);
    const elsewhere = sameCookieOn(b, await clientAs(a, user.id));
    await cachedOn(b, elsewhere, user.id);

    await here.trpc.security.changePassword.mutate({ currentPassword: FACTORY_PASSWORD, newPassword: 'a-new-password-1' });
    await expect.poll(() => elsewhere.trpc.auth.me.query(), soon).toBeNull();
    // and the session that changed it lives on, on either copy
    expect(await sameCookieOn(b, here).trpc.auth.me.query()).toMatchObject({ id: user.id });
  });

  it('a session revoked from the sessions list through one copy is refused at once by the other', async () => {
    const user = await makeUser(a.deps.db);
    const here = await clientAs(a, user.id);
    const there = sameCookieOn(b, await clientAs(a, user.id));
    await cachedOn(b, there, user.id);

    const other = (await here.trpc.security.sessions.query()).find((s) => !s.current)!;
    await here.trpc.security.revokeSession.mutate({ sessionId: other.id });
    await expect.poll(() => there.trpc.auth.me.query(), soon).toBeNull();
  });

  it('a user who becomes a creator through one copy is a creator on the other at once', async () => {
    const user = await makeUser(a.deps.db);
    const onA = await clientAs(a, user.id);
    const onB = sameCookieOn(b, onA);
    await cachedOn(b, onB, user.id);
    expect(await onB.trpc.auth.me.query()).toMatchObject({ isCreator: false });

    await onA.trpc.creators.become.mutate();
    await expect.poll(async () => (await onB.trpc.auth.me.query())?.isCreator, soon).toBe(true);
  });
});

describe('session cache without Redis', () => {
  it('a copy that cannot hear Redis caches nothing: a session ended meanwhile is refused at once', async () => {
    const redis = await startPrivateRedis();
    const server = await startTestServer({ workerQueues: [], env: { REDIS_URL: redis.url } });
    try {
      const user = await makeUser(server.deps.db);
      const client = await clientAs(server, user.id);
      await cachedOn(server, client, user.id);

      await redis.stop();
      // Redis closes every connection of the copy, its cache's subscriber among them, which turns the cache off
      await expect.poll(() => server.deps.sessionCache.listening(), { timeout: 10_000 }).toBe(false);
      // a revocation whose news cannot travel: the row goes, and no copy can be told
      await server.deps.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      expect(await client.trpc.auth.me.query()).toBeNull();

      // and once Redis is back the cache hears again, and caches again
      await redis.start();
      await expect.poll(() => server.deps.sessionCache.listening(), { timeout: 10_000 }).toBe(true);
      const again = await clientAs(server, user.id);
      await cachedOn(server, again, user.id);
    } finally {
      // back up, so that the server closes as usual: every connection it holds ready again and its
      // subscriptions answered (closing one before fails them, unhandled), its cache subscribed again
      if (!redis.running()) await redis.start();
      await untilAnswering([server.deps.redis, ...adapterConnections(server)]);
      await expect.poll(() => server.deps.sessionCache.listening(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => server.deps.queues.mail.getJobCounts().then(() => 'answering', () => 'not yet'), { timeout: 10_000 }).toBe('answering');
      await server.close();
      await redis.stop();
    }
  });
});
