import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TEXTS } from '../../../common/texts';
import { makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { hashPassword } from '../../auth/password';
import { resetRateLimits } from '../../auth/rate-limit';
import { hashToken } from '../../../core/token-hash';

// The real argon2, counted: a dead link must cost no hashing.
vi.mock('../../auth/password', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../auth/password')>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});
const hashCalls = () => vi.mocked(hashPassword).mock.calls.length;

let app: TestServer;
let user: MadeUser;
beforeAll(async () => {
  // one trusted proxy: X-Forwarded-For names the client, so a test can speak from many addresses
  app = await startTestServer({ env: { TRUST_PROXY: '1' } });
  user = await makeUser(app.deps.db);
});
afterAll(async () => {
  await app?.close();
});
beforeEach(async () => {
  await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
});

/** auth.resetPassword as a browser at `ip` sends it; returns the raw HTTP answer. */
async function reset(token: string, password: string, ip: string) {
  const response = await app.client().fetch('/trpc/auth.resetPassword', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ json: { token, password } }),
  });
  // superjson-wrapped, as the tRPC client reads it
  const body = (await response.json()) as { error?: { json: { message: string; data: { code: string } } } };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), error: body.error?.json };
}

async function freshResetToken() {
  await app.client().trpc.auth.requestPasswordReset.mutate({ email: user.email });
  const mail = (await app.outbox()).filter((m) => m.to === user.email && m.link.includes('/auth/reset-password?')).at(-1)!;
  return new URL(mail.link).searchParams.get('token')!;
}

const unknownToken = (n: number) => `unknown-${n}`.padEnd(43, 'x');

describe('auth.resetPassword', () => {
  it('checks the link before hashing: a dead link costs no argon2 work', async () => {
    const before = hashCalls();
    const unknown = await reset(unknownToken(0), 'new secret 1', '198.51.100.1');
    expect(unknown.status).toBe(400);
    expect(unknown.error?.message).toBe(AUTH_TEXTS.resetLinkInvalid);

    const expiredToken = await freshResetToken();
    await app.deps.db.updateTable('email_tokens').set({ expires_at: new Date(Date.now() - 1) }).where('id', '=', hashToken(expiredToken)).execute();
    const expired = await reset(expiredToken, 'new secret 2', '198.51.100.1');
    expect(expired.status).toBe(400);
    expect(hashCalls()).toBe(before);

    // a live link is hashed once and works
    const live = await reset(await freshResetToken(), 'new secret 3', '198.51.100.1');
    expect(live.status).toBe(200);
    expect(hashCalls()).toBe(before + 1);
    expect(await app.client().trpc.auth.signIn.mutate({ email: user.email, password: 'new secret 3' })).toMatchObject({ id: user.id });
  });

  it('the 11th attempt from one address within a minute is refused with 429 and Retry-After', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < 10; i++) expect((await reset(unknownToken(i), 'whatever1', ip)).status).toBe(400);
    const limited = await reset(unknownToken(10), 'whatever1', ip);
    expect(limited.status).toBe(429);
    expect(limited.error?.data.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.error?.message).toBe(AUTH_TEXTS.tooManyAttempts);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    // even a live link is refused from there; another address is not held up
    const token = await freshResetToken();
    expect((await reset(token, 'another secret', ip)).status).toBe(429);
    expect((await reset(token, 'another secret', '198.51.100.21')).status).toBe(200);
  });

  it('the 11th attempt on one link within a minute is refused, from any address', async () => {
    const token = unknownToken(99);
    for (let i = 0; i < 10; i++) expect((await reset(token, 'whatever1', `203.0.113.${i + 1}`)).status).toBe(400);
    const limited = await reset(token, 'whatever1', '203.0.113.50');
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // the counter is kept under the link's hash, never the link itself
    const keys = await app.deps.redis.keys(`${app.deps.config.REDIS_PREFIX}:rl:*`);
    expect(keys.some((key) => key.includes(hashToken(token)))).toBe(true);
    expect(keys.some((key) => key.includes(token))).toBe(false);
  });
});
