import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION } from '../../../common/limits';
import { SECURITY_TEXTS } from '../../../common/security';
import { hashToken } from '../../../core/token-hash';
import { makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { socketPool } from '../../../tests/helpers/sockets';
import type { TestClient } from '../../../tests/helpers/test-server';
import { expectTrpcError } from '../../../tests/helpers/trpc';
import { resetRateLimits } from '../../auth/rate-limit';
import { currentTotpCode } from '../../auth/two-factor';

const app = useFileServer();
const sockets = socketPool();
afterEach(() => sockets.closeAll());
// every request comes from 127.0.0.1: the per-IP windows would run out across tests
beforeEach(async () => {
  await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
});

const sessionToken = (client: TestClient) => client.cookies().get(SESSION.cookieName);

async function signIn(user: MadeUser, password = user.password): Promise<TestClient> {
  const client = app.client();
  const result = await client.trpc.auth.signIn.mutate({ email: user.email, password });
  expect(result).not.toHaveProperty('twoFactorRequired');
  return client;
}

/** Enrols two-factor for the signed-in client; returns the secret as an app would hold it, and the recovery codes. */
async function enrol(client: TestClient): Promise<{ key: Uint8Array; recoveryCodes: string[] }> {
  const started = await client.trpc.security.startTwoFactor.mutate();
  expect(started.qrCode).toMatch(/^data:image\/png;base64,/);
  const key = decodeBase32IgnorePadding(started.secret);
  const { recoveryCodes } = await client.trpc.security.confirmTwoFactor.mutate({ code: currentTotpCode(key) });
  return { key, recoveryCodes };
}

/** Time passing for the app: the code steps already used may be used by the next code. */
async function nextCodeWindow(userId: string) {
  await app.deps.db.updateTable('totp_credentials').set({ last_used_step: null }).where('user_id', '=', userId).execute();
}

async function mailsTo(email: string) {
  return (await app.outbox()).filter((m) => m.to === email);
}

describe('two-factor sign-in', () => {
  it('enrols with a first code, then sign-in asks for a code and makes no session before it', async () => {
    const user = await makeUser(app.deps.db);
    const client = await signIn(user);
    expect(await client.trpc.security.overview.query()).toEqual({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    const started = await client.trpc.security.startTwoFactor.mutate();
    const key = decodeBase32IgnorePadding(started.secret);
    // a wrong first code turns nothing on
    await expectTrpcError(client.trpc.security.confirmTwoFactor.mutate({ code: currentTotpCode(key, Date.now() + 5 * 60_000) }), 'BAD_REQUEST', SECURITY_TEXTS.invalidCode);
    expect((await client.trpc.security.overview.query()).twoFactorEnabled).toBe(false);
    // the very code enrolment used, kept: asked for again later, a new 30 s window would give another
    const enrolmentCode = currentTotpCode(key);
    const { recoveryCodes } = await client.trpc.security.confirmTwoFactor.mutate({ code: enrolmentCode });
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await client.trpc.security.overview.query()).toEqual({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
    // only hashes are stored
    const stored = await app.deps.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0]);

    const browser = app.client();
    expect(await browser.trpc.auth.signIn.mutate({ email: user.email, password: user.password })).toEqual({ twoFactorRequired: true });
    // the challenge cookie is HttpOnly and is not a session
    expect(browser.lastSetCookie().some((c) => c.startsWith('signin_challenge=') && /HttpOnly/i.test(c))).toBe(true);
    expect(sessionToken(browser)).toBeUndefined();
    expect(await browser.trpc.auth.me.query()).toBeNull();

    await expectTrpcError(browser.trpc.auth.verifyTwoFactor.mutate({ code: '000000' }), 'UNAUTHORIZED', SECURITY_TEXTS.invalidCode);
    // the code already used for enrolment does not work again (replay)
    await expectTrpcError(browser.trpc.auth.verifyTwoFactor.mutate({ code: enrolmentCode }), 'UNAUTHORIZED', SECURITY_TEXTS.invalidCode);
    const me = await browser.trpc.auth.verifyTwoFactor.mutate({ code: currentTotpCode(key, Date.now() + 30_000) });
    expect(me.id).toBe(user.id);
    expect(sessionToken(browser)).toBeTruthy();
    expect(await browser.trpc.auth.me.query()).toMatchObject({ id: user.id });
    // the challenge is spent: a second code on it is refused
    await nextCodeWindow(user.id);
    await expectTrpcError(browser.trpc.auth.verifyTwoFactor.mutate({ code: currentTotpCode(key) }), 'UNAUTHORIZED');

    const mails = await mailsTo(user.email);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([expect.stringContaining('Two-factor authentication turned on'), expect.stringContaining('New sign-in')]),
    );
    for (const mail of mails) expect(mail.text).not.toContain(started.secret);
  });

  it('security mail goes even with every e-mail notification turned off', async () => {
    const user = await makeUser(app.deps.db);
    await app.deps.db.updateTable('notification_settings').set({ email_notifications: false, marketing_emails: false }).where('user_id', '=', user.id).execute();
    await enrol(await signIn(user));
    const subjects = (await mailsTo(user.email)).map((m) => m.subject);
    expect(subjects.some((s) => s.includes('New sign-in'))).toBe(true);
    expect(subjects.some((s) => s.includes('Two-factor authentication turned on'))).toBe(true);
  });

  it('a code without a challenge, or on another account, signs nobody in', async () => {
    const stranger = app.client();
    await expectTrpcError(stranger.trpc.auth.verifyTwoFactor.mutate({ code: '123456' }), 'UNAUTHORIZED', SECURITY_TEXTS.challengeExpired);
    expect(sessionToken(stranger)).toBeUndefined();
  });

  it('a recovery code signs in once; each is spent when used', async () => {
    const user = await makeUser(app.deps.db);
    const { recoveryCodes } = await enrol(await signIn(user));
    const first = app.client();
    await first.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    expect((await first.trpc.auth.verifyTwoFactor.mutate({ code: recoveryCodes[0]!.toUpperCase() })).id).toBe(user.id);

    const again = app.client();
    await again.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    await expectTrpcError(again.trpc.auth.verifyTwoFactor.mutate({ code: recoveryCodes[0]! }), 'UNAUTHORIZED', SECURITY_TEXTS.invalidCode);
    expect(sessionToken(again)).toBeUndefined();
    expect((await first.trpc.security.overview.query()).recoveryCodesLeft).toBe(9);
    expect((await mailsTo(user.email)).some((m) => m.subject.includes('recovery code was used'))).toBe(true);
  });

  it('the code step is rate limited per challenge', async () => {
    const user = await makeUser(app.deps.db);
    await enrol(await signIn(user));
    const browser = app.client();
    await browser.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
    for (let i = 0; i < 5; i++) await expectTrpcError(browser.trpc.auth.verifyTwoFactor.mutate({ code: '000000' }), 'UNAUTHORIZED');
    await expectTrpcError(browser.trpc.auth.verifyTwoFactor.mutate({ code: '000000' }), 'TOO_MANY_REQUESTS');
  });

  it('disables with a code (not without one), after which the password alone signs in', async () => {
    const user = await makeUser(app.deps.db);
    const client = await signIn(user);
    const { key } = await enrol(client);
    await expectTrpcError(client.trpc.security.disableTwoFactor.mutate({ code: '000000' }), 'BAD_REQUEST', SECURITY_TEXTS.invalidCode);
    expect((await client.trpc.security.overview.query()).twoFactorEnabled).toBe(true);
    await client.trpc.security.disableTwoFactor.mutate({ code: currentTotpCode(key, Date.now() + 30_000) });
    expect(await client.trpc.security.overview.query()).toEqual({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    expect(await app.deps.db.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    await signIn(user);
    expect((await mailsTo(user.email)).some((m) => m.subject.includes('turned off'))).toBe(true);
  });

  it("one user's enrolment and codes never touch another's", async () => {
    const [ann, bob] = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    const annClient = await signIn(ann);
    const { key } = await enrol(annClient);
    const bobClient = await signIn(bob);
    // Ann's code does not disable anything of Bob's (he has nothing on), nor confirm an enrolment for him
    await expectTrpcError(bobClient.trpc.security.disableTwoFactor.mutate({ code: currentTotpCode(key, Date.now() + 30_000) }), 'BAD_REQUEST', SECURITY_TEXTS.notEnabled);
    await expectTrpcError(bobClient.trpc.security.confirmTwoFactor.mutate({ code: currentTotpCode(key, Date.now() + 30_000) }), 'BAD_REQUEST', SECURITY_TEXTS.notEnrolling);
    expect((await annClient.trpc.security.overview.query()).twoFactorEnabled).toBe(true);
    expect((await bobClient.trpc.security.overview.query()).twoFactorEnabled).toBe(false);
  });
});

describe('sessions', () => {
  it('lists the sessions with this one marked; signing one out refuses its token at once and disconnects its socket', async () => {
    const user = await makeUser(app.deps.db);
    const here = await signIn(user);
    const there = await signIn(user);
    const socket = await sockets.open(app, user);
    const list = await here.trpc.security.sessions.query();
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.find((s) => s.current)!.device).toBe('Script');
    // the list never carries the session row's id (the token's hash)
    expect(JSON.stringify(list)).not.toContain(hashToken(sessionToken(there)!));

    const socketRow = await app.deps.db
      .selectFrom('sessions')
      .select('public_id')
      .where('user_id', '=', user.id)
      .where('id', 'not in', [hashToken(sessionToken(here)!), hashToken(sessionToken(there)!)])
      .executeTakeFirstOrThrow();
    const revoked = new Promise<void>((resolve) => socket.once('session:revoked', () => resolve()));
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect(await here.trpc.security.revokeSession.mutate({ sessionId: socketRow.public_id })).toEqual({ current: false });
    await revoked;
    await disconnected;

    const thereRow = list.find((s) => !s.current && s.id !== socketRow.public_id)!;
    await here.trpc.security.revokeSession.mutate({ sessionId: thereRow.id });
    expect(await there.trpc.auth.me.query()).toBeNull();
    expect(await here.trpc.auth.me.query()).toMatchObject({ id: user.id });
    expect((await here.trpc.security.sessions.query()).map((s) => s.current)).toEqual([true]);
  });

  it("another user's session id is 'Session not found' and that session lives on", async () => {
    const [ann, bob] = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    const annClient = await signIn(ann);
    const bobClient = await signIn(bob);
    const bobSession = (await bobClient.trpc.security.sessions.query())[0]!;
    await expectTrpcError(annClient.trpc.security.revokeSession.mutate({ sessionId: bobSession.id }), 'NOT_FOUND', SECURITY_TEXTS.sessionNotFound);
    expect(await bobClient.trpc.auth.me.query()).toMatchObject({ id: bob.id });
    // and Ann's list holds only her own
    expect((await annClient.trpc.security.sessions.query()).map((s) => s.id)).not.toContain(bobSession.id);
  });

  it('signing out its own session from the list clears the cookie', async () => {
    const user = await makeUser(app.deps.db);
    const here = await signIn(user);
    const mine = (await here.trpc.security.sessions.query()).find((s) => s.current)!;
    expect(await here.trpc.security.revokeSession.mutate({ sessionId: mine.id })).toEqual({ current: true });
    expect(sessionToken(here)).toBeUndefined();
  });
});

describe('change password', () => {
  it('needs the current password; then signs out the other sessions (and sockets) and keeps this one', async () => {
    const user = await makeUser(app.deps.db);
    const here = await signIn(user);
    const there = await signIn(user);
    const socket = await sockets.open(app, user);
    await expectTrpcError(
      here.trpc.security.changePassword.mutate({ currentPassword: 'not-the-password', newPassword: 'a-brand-new-password' }),
      'BAD_REQUEST',
      SECURITY_TEXTS.wrongPassword,
    );
    expect(await there.trpc.auth.me.query()).not.toBeNull();

    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    expect(await here.trpc.security.changePassword.mutate({ currentPassword: user.password, newPassword: 'a-brand-new-password' })).toEqual({
      ok: true,
      sessionsEnded: 2,
    });
    await disconnected;
    expect(await there.trpc.auth.me.query()).toBeNull();
    expect(await here.trpc.auth.me.query()).toMatchObject({ id: user.id });
    await expectTrpcError(app.client().trpc.auth.signIn.mutate({ email: user.email, password: user.password }), 'UNAUTHORIZED');
    await signIn(user, 'a-brand-new-password');
    expect((await mailsTo(user.email)).some((m) => m.subject.includes('password was changed'))).toBe(true);
  });

  it('a signed-out visitor cannot call any of it', async () => {
    const visitor = app.client();
    await expectTrpcError(visitor.trpc.security.sessions.query(), 'UNAUTHORIZED');
    await expectTrpcError(visitor.trpc.security.startTwoFactor.mutate(), 'UNAUTHORIZED');
    await expectTrpcError(visitor.trpc.security.changePassword.mutate({ currentPassword: 'x', newPassword: 'yyyyyyyyyy' }), 'UNAUTHORIZED');
  });
});
