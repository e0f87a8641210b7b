import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION } from '../../common/limits';
import type { Config } from '../../core/config';
import { createSessionCache } from '../../core/sessions/session-cache';
import { hashToken } from '../../core/token-hash';
import { makeSessionCookie, makeUser } from '../../tests/helpers/factories';
import { createTestDb, type TestDatabase } from '../../tests/helpers/test-db';
import { resolveSession, type SessionDeps } from './resolve-session';

let t: TestDatabase;
let deps: SessionDeps;
beforeAll(async () => {
  t = await createTestDb();
  // a cache that hears no forgets caches nothing: every call here reads the database
  deps = { db: t.db, config: { cookieSecure: false } as Config, sessionCache: createSessionCache() };
});
afterAll(async () => {
  await t?.destroy();
});

const DAY = 86_400_000;
const response = () => new ServerResponse(new IncomingMessage(new Socket()));
const sessionCookies = (res: ServerResponse) =>
  ([res.getHeader('Set-Cookie') ?? []].flat() as string[]).filter((c) => c.startsWith(`${SESSION.cookieName}=`));
const expiryOf = async (sessionId: string) =>
  (await t.db.selectFrom('sessions').select('expires_at').where('id', '=', sessionId).executeTakeFirst())?.expires_at;
const setExpiry = (sessionId: string, at: Date) => t.db.updateTable('sessions').set({ expires_at: at }).where('id', '=', sessionId).execute();

describe('resolveSession', () => {
  it('is nobody without a session cookie, and sets no cookie', async () => {
    for (const header of [undefined, '', 'theme=dark', `${SESSION.cookieName}=`]) {
      const res = response();
      expect(await resolveSession(deps, header, res)).toBeNull();
      expect(sessionCookies(res)).toEqual([]);
    }
  });

  it('finds the user and session of a live cookie, among other cookies', async () => {
    const user = await makeUser(t.db, { isCreator: true });
    const { token, sessionId } = await makeSessionCookie(t.db, user.id);
    const res = response();
    const resolved = await resolveSession(deps, `theme=dark; ${SESSION.cookieName}=${token}`, res);
    expect(resolved?.session).toMatchObject({ id: sessionId, userId: user.id });
    expect(resolved?.session.id).toBe(hashToken(token));
    expect(resolved?.user).toMatchObject({ id: user.id, email: user.email, username: user.username, isCreator: true, role: 'user', emailVerified: true });
    // 30 days left: nothing to renew, nothing re-sent
    expect(sessionCookies(res)).toEqual([]);
  });

  it('renews a session under 15 days from its end and re-sends the cookie when there is a response', async () => {
    const user = await makeUser(t.db);
    const { token, sessionId } = await makeSessionCookie(t.db, user.id);
    await setExpiry(sessionId, new Date(Date.now() + 10 * DAY));
    const res = response();
    const resolved = await resolveSession(deps, `${SESSION.cookieName}=${token}`, res);
    const renewedTo = Date.now() + SESSION.lifetimeMs;
    expect(Math.abs(resolved!.session.expiresAt.getTime() - renewedTo)).toBeLessThan(60_000);
    expect(Math.abs((await expiryOf(sessionId))!.getTime() - renewedTo)).toBeLessThan(60_000);
    const [sent] = sessionCookies(res);
    expect(sent).toMatch(new RegExp(`^${SESSION.cookieName}=${token};`));
    expect(sent).toMatch(/HttpOnly/);

    // a socket handshake (no response) renews the row all the same
    await setExpiry(sessionId, new Date(Date.now() + 10 * DAY));
    expect((await resolveSession(deps, `${SESSION.cookieName}=${token}`))?.user.id).toBe(user.id);
    expect(Math.abs((await expiryOf(sessionId))!.getTime() - renewedTo)).toBeLessThan(60_000);
  });

  it('refuses an expired session, deletes it and clears the cookie', async () => {
    const user = await makeUser(t.db);
    const { token, sessionId } = await makeSessionCookie(t.db, user.id);
    await setExpiry(sessionId, new Date(Date.now() - 1000));
    const res = response();
    expect(await resolveSession(deps, `${SESSION.cookieName}=${token}`, res)).toBeNull();
    expect(await expiryOf(sessionId)).toBeUndefined();
    expect(sessionCookies(res)).toEqual([expect.stringMatching(new RegExp(`^${SESSION.cookieName}=; Max-Age=0`))]);
  });

  it('treats an unknown token as nobody: cleared on a response, left alone on a handshake', async () => {
    const res = response();
    expect(await resolveSession(deps, `${SESSION.cookieName}=forged-token`, res)).toBeNull();
    expect(sessionCookies(res)).toEqual([expect.stringMatching(/Max-Age=0/)]);
    expect(await resolveSession(deps, `${SESSION.cookieName}=forged-token`)).toBeNull();
  });
});
