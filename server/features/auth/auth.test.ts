import { TRPCClientError } from '@trpc/client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION } from '../../../common/limits';
import { AUTH_TEXTS, VALIDATION } from '../../../common/texts';
import { type TestClient, useTestServer } from '../../../tests/helpers/test-server';
import { hashToken } from '../../../core/token-hash';
import { resetRateLimits } from '../../auth/rate-limit';
import type { AppRouter } from '../../trpc/router';

const app = useTestServer();
// All requests come from 127.0.0.1: without this the per-IP window would run out across tests.
beforeEach(async () => {
  await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
});

type ClientError = TRPCClientError<AppRouter>;

async function failure(promise: Promise<unknown>): Promise<ClientError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected the call to fail, it returned ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof TRPCClientError)) throw outcome.error;
  return outcome.error as ClientError;
}

function isoDate(date: Date) {
  return date.toISOString().slice(0, 10);
}
function yearsAgo(years: number, extraDays = 0) {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + extraDays);
  return isoDate(d);
}

let seq = 0;
function newAccount(overrides: Partial<{ email: string; username: string; password: string }> = {}) {
  seq += 1;
  const id = `${Date.now().toString(36)}${seq}`;
  return {
    email: overrides.email ?? `user${id}@example.com`,
    password: overrides.password ?? 'correct horse',
    username: overrides.username ?? `user${id}`,
    firstName: 'Ava',
    surname: 'Smith',
    dateOfBirth: yearsAgo(30),
    acceptTerms: true,
  };
}

async function mailTo(email: string, kind: 'confirm' | 'reset-password') {
  const mails = (await app.outbox()).filter((m) => m.to === email.trim().toLowerCase() && m.link.includes(`/auth/${kind}?`));
  return mails;
}
async function lastToken(email: string, kind: 'confirm' | 'reset-password') {
  const mails = await mailTo(email, kind);
  const last = mails.at(-1);
  if (!last) throw new Error(`no ${kind} mail for ${email}`);
  return new URL(last.link).searchParams.get('token')!;
}

/** Sign up and confirm through the API; returns the credentials. */
async function registered(overrides: Parameters<typeof newAccount>[0] = {}) {
  const account = newAccount(overrides);
  const client = app.client();
  await client.trpc.auth.signUp.mutate(account);
  await client.trpc.auth.confirmEmail.mutate({ token: await lastToken(account.email, 'confirm') });
  return account;
}

async function signedIn(account: { email: string; password: string }): Promise<TestClient> {
  const client = app.client();
  await client.trpc.auth.signIn.mutate({ email: account.email, password: account.password });
  return client;
}

function sessionCookie(client: TestClient) {
  return client.cookies().get(SESSION.cookieName);
}

function parseSetCookie(raw: string) {
  const [pair, ...attrs] = raw.split(';').map((s) => s.trim());
  const eq = pair!.indexOf('=');
  const attributes = new Map(
    attrs.map((a) => {
      const i = a.indexOf('=');
      return i === -1 ? [a.toLowerCase(), ''] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)];
    }),
  );
  return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), attributes };
}

describe('sign up, confirm, sign in', () => {
  it('signs up, mails a link, confirms, signs in and reads me', async () => {
    const account = newAccount({ email: '  Ava.Journey@Example.COM ', username: 'Ava Journey' });
    const client = app.client();

    expect(await client.trpc.auth.signUp.mutate(account)).toEqual({ ok: true });
    // sign-up does not sign in
    expect(sessionCookie(client)).toBeUndefined();
    expect(await client.trpc.auth.me.query()).toBeNull();

    const db = app.deps.db;
    const user = await db.selectFrom('users').selectAll().where('email', '=', 'ava.journey@example.com').executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    expect(user.email_verified_at).toBeNull();
    const profile = await db.selectFrom('profiles').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ username: 'avajourney', display_name: 'Ava Smith', date_of_birth: account.dateOfBirth, is_creator: false });
    expect(await db.selectFrom('privacy_settings').selectAll().where('user_id', '=', user.id).executeTakeFirst()).toMatchObject({
      profile_visibility: 'public',
    });
    expect(await db.selectFrom('notification_settings').select('user_id').where('user_id', '=', user.id).executeTakeFirst()).toBeDefined();
    expect(await db.selectFrom('verification_status').selectAll().where('user_id', '=', user.id).executeTakeFirst()).toMatchObject({
      is_email_verified: false,
    });

    const mails = await mailTo('ava.journey@example.com', 'confirm');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link.startsWith(`${app.url}/auth/confirm?token=`)).toBe(true);
    const token = await lastToken('ava.journey@example.com', 'confirm');
    // only the token's SHA-256 is stored
    const tokens = await db.selectFrom('email_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ id: hashToken(token), purpose: 'confirm_email', used_at: null });
    expect(tokens[0]!.id).not.toBe(token);

    // unconfirmed: refused
    const refused = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: account.password }));
    expect(refused.data?.code).toBe('FORBIDDEN');
    expect(refused.message).toBe(AUTH_TEXTS.emailNotConfirmed);

    expect(await client.trpc.auth.confirmEmail.mutate({ token })).toEqual({ ok: true, alreadyConfirmed: false });
    const confirmed = await db.selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(confirmed.email_verified_at).toBeInstanceOf(Date);
    expect(
      (await db.selectFrom('verification_status').select('is_email_verified').where('user_id', '=', user.id).executeTakeFirstOrThrow())
        .is_email_verified,
    ).toBe(true);

    const me = await client.trpc.auth.signIn.mutate({ email: 'AVA.journey@example.com ', password: account.password });
    const expected = {
      id: user.id,
      email: 'ava.journey@example.com',
      username: 'avajourney',
      displayName: 'Ava Smith',
      avatarUrl: null,
      isCreator: false,
      isPremium: false,
      isVerified: false,
      role: 'user',
    };
    expect(me).toEqual(expected);
    expect(await client.trpc.auth.me.query()).toEqual(expected);
  });

  it('a confirmation link confirms once, then says the address is already confirmed; unknown and expired links are refused', async () => {
    const account = newAccount();
    const client = app.client();
    await client.trpc.auth.signUp.mutate(account);
    const token = await lastToken(account.email, 'confirm');
    expect(await client.trpc.auth.confirmEmail.mutate({ token })).toEqual({ ok: true, alreadyConfirmed: false });
    const user = await app.deps.db.selectFrom('users').select(['id', 'email_verified_at']).where('email', '=', account.email).executeTakeFirstOrThrow();
    const firstConfirmation = user.email_verified_at;

    // the same link again: told apart from a bad link, and nothing changes
    expect(await client.trpc.auth.confirmEmail.mutate({ token })).toEqual({ ok: true, alreadyConfirmed: true });
    expect(await app.client().trpc.auth.confirmEmail.mutate({ token })).toEqual({ ok: true, alreadyConfirmed: true });
    const after = await app.deps.db.selectFrom('users').select('email_verified_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.email_verified_at).toEqual(firstConfirmation);
    // the used token is kept, marked used
    const stored = await app.deps.db.selectFrom('email_tokens').select('used_at').where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(stored.used_at).toBeInstanceOf(Date);

    const unknown = await failure(client.trpc.auth.confirmEmail.mutate({ token: 'x'.repeat(43) }));
    expect(unknown.data?.code).toBe('BAD_REQUEST');
    expect(unknown.message).toBe(AUTH_TEXTS.confirmLinkInvalid);

    const other = newAccount();
    await client.trpc.auth.signUp.mutate(other);
    const otherToken = await lastToken(other.email, 'confirm');
    await app.deps.db.updateTable('email_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', hashToken(otherToken)).execute();
    const expired = await failure(client.trpc.auth.confirmEmail.mutate({ token: otherToken }));
    expect(expired.message).toBe(AUTH_TEXTS.confirmLinkInvalid);
    const otherUser = await app.deps.db.selectFrom('users').select('email_verified_at').where('email', '=', other.email).executeTakeFirstOrThrow();
    expect(otherUser.email_verified_at).toBeNull();
  });

  it('says already confirmed only for a used confirmation token whose address is confirmed', async () => {
    const client = app.client();

    // a used token (retired by a newer link) of an address not confirmed yet: invalid, not 'already confirmed'
    const pending = newAccount();
    await client.trpc.auth.signUp.mutate(pending);
    const retired = await lastToken(pending.email, 'confirm');
    await app.deps.db.updateTable('email_tokens').set({ used_at: new Date() }).where('id', '=', hashToken(retired)).execute();
    const unconfirmed = await failure(client.trpc.auth.confirmEmail.mutate({ token: retired }));
    expect(unconfirmed.data?.code).toBe('BAD_REQUEST');
    expect(unconfirmed.message).toBe(AUTH_TEXTS.confirmLinkInvalid);

    // a confirmed account's password-reset link is not a confirmation link, used or not
    const account = await registered();
    await client.trpc.auth.requestPasswordReset.mutate({ email: account.email });
    const resetToken = await lastToken(account.email, 'reset-password');
    const unusedReset = await failure(client.trpc.auth.confirmEmail.mutate({ token: resetToken }));
    expect(unusedReset.message).toBe(AUTH_TEXTS.confirmLinkInvalid);
    await app.deps.db.updateTable('email_tokens').set({ used_at: new Date() }).where('id', '=', hashToken(resetToken)).execute();
    const usedReset = await failure(client.trpc.auth.confirmEmail.mutate({ token: resetToken }));
    expect(usedReset.message).toBe(AUTH_TEXTS.confirmLinkInvalid);
  });

  it('confirming is a mutation: a GET of the procedure changes nothing', async () => {
    const account = newAccount();
    const client = app.client();
    await client.trpc.auth.signUp.mutate(account);
    const token = await lastToken(account.email, 'confirm');
    const input = encodeURIComponent(JSON.stringify({ json: { token } }));
    const response = await client.fetch(`/trpc/auth.confirmEmail?input=${input}`);
    expect(response.ok).toBe(false);
    const user = await app.deps.db.selectFrom('users').select('email_verified_at').where('email', '=', account.email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBeNull();
  });

  it('an unconfirmed sign-in re-sends the link at most once a minute', async () => {
    const account = newAccount();
    const client = app.client();
    await client.trpc.auth.signUp.mutate(account);
    expect(await mailTo(account.email, 'confirm')).toHaveLength(1);

    // a wrong password learns nothing about the confirmation state and sends nothing
    const wrong = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: 'wrong password' }));
    expect(wrong.data?.code).toBe('UNAUTHORIZED');
    expect(await mailTo(account.email, 'confirm')).toHaveLength(1);

    for (let i = 0; i < 3; i++) {
      const refused = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: account.password }));
      expect(refused.data?.code).toBe('FORBIDDEN');
      expect(refused.message).toBe(AUTH_TEXTS.emailNotConfirmed);
    }
    const mails = await mailTo(account.email, 'confirm');
    expect(mails).toHaveLength(2);
    // the fresh link works
    await client.trpc.auth.confirmEmail.mutate({ token: await lastToken(account.email, 'confirm') });
    expect(await client.trpc.auth.signIn.mutate({ email: account.email, password: account.password })).toMatchObject({
      username: account.username,
    });
  });
});

describe('sign-up rules', () => {
  it('a taken e-mail (in any case) is a CONFLICT with the product message', async () => {
    const account = await registered();
    const client = app.client();
    const error = await failure(
      client.trpc.auth.signUp.mutate({ ...newAccount(), email: account.email.toUpperCase() }),
    );
    expect(error.data?.code).toBe('CONFLICT');
    expect(error.data?.httpStatus).toBe(409);
    expect(error.message).toBe('An account with this email already exists. Please sign in instead.');
  });

  it('a taken username (Ava vs ava) is a CONFLICT on the username field', async () => {
    await registered({ username: 'ava' });
    const error = await failure(app.client().trpc.auth.signUp.mutate({ ...newAccount(), username: 'Ava' }));
    expect(error.data?.code).toBe('CONFLICT');
    expect(error.message).toBe(VALIDATION.usernameTaken);
    expect(error.data?.validation).toEqual({
      title: 'Validation Error',
      messages: [VALIDATION.usernameTaken],
      fieldErrors: { username: [VALIDATION.usernameTaken] },
    });
  });

  it('racing sign-ups for one e-mail or one username create exactly one account', async () => {
    const base = newAccount();
    const sameEmail = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => app.client().trpc.auth.signUp.mutate({ ...base, username: `${base.username}r${i}` })),
    );
    expect(sameEmail.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of sameEmail.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect((r.reason as ClientError).data?.code).toBe('CONFLICT');
      expect((r.reason as ClientError).message).toBe(AUTH_TEXTS.accountExists.description);
    }

    const name = `race${Date.now().toString(36)}`;
    const sameName = await Promise.allSettled(
      Array.from({ length: 4 }, () => app.client().trpc.auth.signUp.mutate({ ...newAccount(), username: name })),
    );
    expect(sameName.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of sameName.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect((r.reason as ClientError).message).toBe(VALIDATION.usernameTaken);
    }
    // no half-made accounts: every user has its profile
    const orphans = await app.deps.db
      .selectFrom('users')
      .leftJoin('profiles', 'profiles.id', 'users.id')
      .select('users.id')
      .where('profiles.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  });

  async function validation(input: Record<string, unknown>) {
    const error = await failure(app.client().trpc.auth.signUp.mutate(input as never));
    expect(error.data?.code).toBe('BAD_REQUEST');
    expect(error.data?.validation?.title).toBe('Validation Error');
    return error.data!.validation!.messages;
  }

  it('refuses under-18s and birth dates in the future', async () => {
    expect(await validation({ ...newAccount(), dateOfBirth: yearsAgo(18, 1) })).toEqual([VALIDATION.underAge]);
    expect(VALIDATION.underAge).toBe('You must be 18 or older to sign up.');
    expect(await validation({ ...newAccount(), dateOfBirth: yearsAgo(0, 1) })).toEqual([VALIDATION.dateOfBirthInFuture]);
    // exactly 18 today is old enough
    const adult = newAccount();
    expect(await app.client().trpc.auth.signUp.mutate({ ...adult, dateOfBirth: yearsAgo(18) })).toEqual({ ok: true });
  });

  it('lists every missing field and the terms in the product words', async () => {
    const messages = await validation({
      email: '',
      password: '',
      username: '   ',
      firstName: ' ',
      surname: '',
      dateOfBirth: '',
      acceptTerms: false,
    });
    for (const text of [
      'Email is required',
      'Username is required',
      'First name is required',
      'Surname is required',
      'Date of birth is required',
      'Password must be at least 6 characters',
      'You must accept the Terms and Conditions',
    ]) {
      expect(messages).toContain(text);
    }
    expect(await validation({ ...newAccount(), acceptTerms: false })).toEqual(['You must accept the Terms and Conditions']);
    expect(await validation({ ...newAccount(), email: 'not-an-email' })).toEqual(['Please enter a valid email address']);
  });
});

describe('sign in', () => {
  it('a wrong password and an unknown e-mail fail alike', async () => {
    const account = await registered();
    const client = app.client();
    const wrong = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: 'not the password' }));
    const unknown = await failure(client.trpc.auth.signIn.mutate({ email: 'nobody-here@example.com', password: 'whatever1' }));
    for (const error of [wrong, unknown]) {
      expect(error.data?.code).toBe('UNAUTHORIZED');
      expect(error.data?.httpStatus).toBe(401);
      expect(error.message).toBe(AUTH_TEXTS.invalidCredentials);
    }
    expect(sessionCookie(client)).toBeUndefined();
  });

  it('validates its input with the spec messages', async () => {
    const error = await failure(app.client().trpc.auth.signIn.mutate({ email: 'nope', password: '123' }));
    expect(error.data?.validation?.messages).toEqual(['Please enter a valid email address', 'Password must be at least 6 characters']);
  });

  it('the 11th attempt within a minute is refused with 429 and Retry-After', async () => {
    const account = await registered();
    const client = app.client();
    for (let i = 0; i < 10; i++) {
      const error = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: `wrong-${i}` }));
      expect(error.data?.code).toBe('UNAUTHORIZED');
    }
    // even the right password is refused now
    const limited = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: account.password }));
    expect(limited.data?.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.data?.httpStatus).toBe(429);
    expect(limited.message).toBe(AUTH_TEXTS.tooManyAttempts);
    const seconds = limited.data?.retryAfterSeconds;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(client.lastResponse()?.status).toBe(429);
    expect(Number(client.lastResponse()?.headers.get('retry-after'))).toBe(seconds);
    expect(sessionCookie(client)).toBeUndefined();
  });

  it('sign-up and password-reset requests are rate limited too', async () => {
    const client = app.client();
    for (let i = 0; i < 10; i++) await client.trpc.auth.requestPasswordReset.mutate({ email: 'limit-me@example.com' });
    const reset = await failure(client.trpc.auth.requestPasswordReset.mutate({ email: 'limit-me@example.com' }));
    expect(reset.data?.code).toBe('TOO_MANY_REQUESTS');

    for (let i = 0; i < 10; i++) await client.trpc.auth.signUp.mutate(newAccount());
    const signUp = await failure(client.trpc.auth.signUp.mutate(newAccount()));
    expect(signUp.data?.code).toBe('TOO_MANY_REQUESTS');
    expect(signUp.message).toBe(AUTH_TEXTS.tooManyAttempts);
  });

  it('sets an HttpOnly, SameSite=Lax, Path=/ cookie whose value is not in the database', async () => {
    const account = await registered();
    const client = app.client();
    await client.trpc.auth.signIn.mutate({ email: account.email, password: account.password });
    const raw = client.lastSetCookie().find((c) => c.startsWith(`${SESSION.cookieName}=`));
    expect(raw).toBeDefined();
    const cookie = parseSetCookie(raw!);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')?.toLowerCase()).toBe('lax');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.has('secure')).toBe(false); // http test server; on with https APP_URL
    const expires = new Date(cookie.attributes.get('expires')!).getTime();
    expect(Math.abs(expires - (Date.now() + SESSION.lifetimeMs))).toBeLessThan(60_000);

    const token = cookie.value;
    expect(token.length).toBeGreaterThanOrEqual(26); // >= 128 bits
    const db = app.deps.db;
    expect(await db.selectFrom('sessions').select('id').where('id', '=', token).executeTakeFirst()).toBeUndefined();
    const row = await db.selectFrom('sessions').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(row.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('every sign-in gets a new token and retires the session the browser carried', async () => {
    const account = await registered();
    const client = await signedIn(account);
    const first = sessionCookie(client)!;
    await client.trpc.auth.signIn.mutate({ email: account.email, password: account.password });
    const second = sessionCookie(client)!;
    expect(second).not.toBe(first);
    expect(await app.deps.db.selectFrom('sessions').select('id').where('id', '=', hashToken(first)).executeTakeFirst()).toBeUndefined();
    expect(await client.trpc.auth.me.query()).toMatchObject({ email: account.email });
  });
});

describe('sessions and sign-out', () => {
  it('local sign-out ends this session and clears the cookie', async () => {
    const account = await registered();
    const client = await signedIn(account);
    const token = sessionCookie(client)!;
    expect(await client.trpc.auth.signOut.mutate({ scope: 'local' })).toEqual({ ok: true, sessionsEnded: 1 });
    const cleared = parseSetCookie(client.lastSetCookie().find((c) => c.startsWith(`${SESSION.cookieName}=`))!);
    expect(cleared.value).toBe('');
    expect(cleared.attributes.get('max-age')).toBe('0');
    expect(sessionCookie(client)).toBeUndefined();
    expect(await client.trpc.auth.me.query()).toBeNull();
    expect(await app.deps.db.selectFrom('sessions').select('id').where('id', '=', hashToken(token)).executeTakeFirst()).toBeUndefined();
  });

  it('signing out needs a session', async () => {
    const error = await failure(app.client().trpc.auth.signOut.mutate({ scope: 'local' }));
    expect(error.data?.code).toBe('UNAUTHORIZED');
  });

  it('"others" keeps this session, ends the rest and disconnects their sockets', async () => {
    const account = await registered();
    const here = await signedIn(account);
    const there = await signedIn(account);
    const third = await signedIn(account);
    const spy = vi.spyOn(app.deps.realtime, 'disconnectSessions');
    try {
      expect(await here.trpc.auth.signOut.mutate({ scope: 'others' })).toEqual({ ok: true, sessionsEnded: 2 });
      expect(spy).toHaveBeenCalledTimes(1);
      expect([...spy.mock.calls[0]![0]].sort()).toEqual([hashToken(sessionCookie(there)!), hashToken(sessionCookie(third)!)].sort());
    } finally {
      spy.mockRestore();
    }
    expect(here.lastSetCookie().some((c) => c.startsWith(`${SESSION.cookieName}=`))).toBe(false);
    expect(await here.trpc.auth.me.query()).toMatchObject({ email: account.email });
    expect(await there.trpc.auth.me.query()).toBeNull();
    // the dead cookie was cleared by the server
    expect(sessionCookie(there)).toBeUndefined();
    expect(await third.trpc.auth.me.query()).toBeNull();
  });

  it('"global" ends every session, this one included', async () => {
    const account = await registered();
    const here = await signedIn(account);
    const there = await signedIn(account);
    const other = await signedIn(await registered());
    expect(await here.trpc.auth.signOut.mutate({ scope: 'global' })).toEqual({ ok: true, sessionsEnded: 2 });
    expect(sessionCookie(here)).toBeUndefined();
    expect(await here.trpc.auth.me.query()).toBeNull();
    expect(await there.trpc.auth.me.query()).toBeNull();
    // someone else's session is untouched
    expect(await other.trpc.auth.me.query()).not.toBeNull();
  });

  it('an expired session is rejected, deleted and its cookie cleared', async () => {
    const account = await registered();
    const client = await signedIn(account);
    const id = hashToken(sessionCookie(client)!);
    await app.deps.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
    expect(await client.trpc.auth.me.query()).toBeNull();
    const cleared = client.lastSetCookie().find((c) => c.startsWith(`${SESSION.cookieName}=`));
    expect(cleared).toBeDefined();
    expect(parseSetCookie(cleared!).attributes.get('max-age')).toBe('0');
    expect(sessionCookie(client)).toBeUndefined();
    expect(await app.deps.db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // and authed procedures refuse it
    const error = await failure(client.trpc.messages.unreadCount.query());
    expect(error.data?.code).toBe('UNAUTHORIZED');
  });

  it('a session with under 15 days left is extended to 30 and the cookie re-sent', async () => {
    const account = await registered();
    const client = await signedIn(account);
    const token = sessionCookie(client)!;
    const id = hashToken(token);
    await app.deps.db.updateTable('sessions').set({ expires_at: new Date(Date.now() + 10 * 86_400_000) }).where('id', '=', id).execute();

    expect(await client.trpc.auth.me.query()).toMatchObject({ email: account.email });
    const renewed = client.lastSetCookie().find((c) => c.startsWith(`${SESSION.cookieName}=`));
    expect(renewed).toBeDefined();
    const cookie = parseSetCookie(renewed!);
    expect(cookie.value).toBe(token);
    expect(Math.abs(new Date(cookie.attributes.get('expires')!).getTime() - (Date.now() + SESSION.lifetimeMs))).toBeLessThan(60_000);
    const row = await app.deps.db.selectFrom('sessions').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Math.abs(row.expires_at.getTime() - (Date.now() + SESSION.lifetimeMs))).toBeLessThan(60_000);

    // with more than 15 days left nothing is re-sent
    await client.trpc.auth.me.query();
    expect(client.lastSetCookie().some((c) => c.startsWith(`${SESSION.cookieName}=`))).toBe(false);
  });
});

describe('password reset', () => {
  it('resets end to end: old password fails, new one works, old sessions are dead', async () => {
    const account = await registered();
    const laptop = await signedIn(account);
    const phone = await signedIn(account);
    const client = app.client();

    expect(await client.trpc.auth.requestPasswordReset.mutate({ email: ` ${account.email.toUpperCase()} ` })).toEqual({ ok: true });
    const token = await lastToken(account.email, 'reset-password');
    expect((await mailTo(account.email, 'reset-password'))[0]!.link).toBe(`${app.url}/auth/reset-password?token=${token}`);
    const stored = await app.deps.db.selectFrom('email_tokens').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('reset_password');

    const spy = vi.spyOn(app.deps.realtime, 'disconnectSessions');
    try {
      expect(await client.trpc.auth.resetPassword.mutate({ token, password: 'a brand new secret' })).toEqual({ ok: true });
      expect([...spy.mock.calls[0]![0]].sort()).toEqual(
        [hashToken(sessionCookie(laptop)!), hashToken(sessionCookie(phone)!)].sort(),
      );
    } finally {
      spy.mockRestore();
    }

    expect(await laptop.trpc.auth.me.query()).toBeNull();
    expect(await phone.trpc.auth.me.query()).toBeNull();
    const old = await failure(client.trpc.auth.signIn.mutate({ email: account.email, password: account.password }));
    expect(old.message).toBe(AUTH_TEXTS.invalidCredentials);
    expect(await client.trpc.auth.signIn.mutate({ email: account.email, password: 'a brand new secret' })).toMatchObject({
      email: account.email,
    });

    // the link works once
    const reused = await failure(app.client().trpc.auth.resetPassword.mutate({ token, password: 'another secret' }));
    expect(reused.data?.code).toBe('BAD_REQUEST');
    expect(reused.message).toBe(AUTH_TEXTS.resetLinkInvalid);
  });

  it('answers the same for unknown addresses and sends nothing', async () => {
    const before = (await app.outbox()).length;
    expect(await app.client().trpc.auth.requestPasswordReset.mutate({ email: 'no-such-user@example.com' })).toEqual({ ok: true });
    expect((await app.outbox()).length).toBe(before);
  });

  it('refuses unknown, expired and confirm-email tokens', async () => {
    const account = newAccount();
    const client = app.client();
    await client.trpc.auth.signUp.mutate(account);
    const confirmToken = await lastToken(account.email, 'confirm');
    const wrongPurpose = await failure(client.trpc.auth.resetPassword.mutate({ token: confirmToken, password: 'secret123' }));
    expect(wrongPurpose.message).toBe(AUTH_TEXTS.resetLinkInvalid);

    await client.trpc.auth.requestPasswordReset.mutate({ email: account.email });
    const token = await lastToken(account.email, 'reset-password');
    await app.deps.db.updateTable('email_tokens').set({ expires_at: new Date(Date.now() - 1) }).where('id', '=', hashToken(token)).execute();
    const expired = await failure(client.trpc.auth.resetPassword.mutate({ token, password: 'secret123' }));
    expect(expired.data?.code).toBe('BAD_REQUEST');
    expect(expired.message).toBe(AUTH_TEXTS.resetLinkInvalid);

    const unknown = await failure(client.trpc.auth.resetPassword.mutate({ token: 'y'.repeat(43), password: 'secret123' }));
    expect(unknown.message).toBe(AUTH_TEXTS.resetLinkInvalid);
  });

  it('a successful reset also confirms the address (the link reached the inbox)', async () => {
    const account = newAccount();
    const client = app.client();
    await client.trpc.auth.signUp.mutate(account);
    await client.trpc.auth.requestPasswordReset.mutate({ email: account.email });
    await client.trpc.auth.resetPassword.mutate({ token: await lastToken(account.email, 'reset-password'), password: 'fresh secret' });
    expect(await client.trpc.auth.signIn.mutate({ email: account.email, password: 'fresh secret' })).toMatchObject({
      username: account.username,
    });
  });
});
