import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmailTokenPurpose } from '../../common/enums';
import { makeUser, type MadeUser } from '../../tests/helpers/factories';
import { createTestDb, type TestDatabase } from '../../tests/helpers/test-db';
import { systemClock } from '../../core/clock';
import { loadConfig } from '../../core/config';
import { createRedis } from '../../core/redis';
import { hashToken } from '../../core/token-hash';
import { createOutboxTransport, type MailTransport } from '../mail/transport';
import { mailHandlers, type MailDeps, type MailJob } from './mail';

let testDb: TestDatabase;
let outboxDir: string;
let deps: MailDeps;
let user: MadeUser;
/** when the jobs were queued (a whole second, so the outbox names are easy to read) */
let queuedAt: number;

const redis = createRedis(loadConfig().REDIS_URL);
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb?.destroy();
  redis.disconnect();
});
beforeEach(async () => {
  outboxDir = path.join(await mkdtemp(path.join(tmpdir(), 'mail-test-')), 'outbox');
  // a fresh config object per test: the transport is cached per settings object
  deps = {
    config: { appUrl: 'http://app.test', SMTP_URL: undefined, MAIL_FROM: 'CreatorHub <no-reply@app.test>', OUTBOX_DIR: outboxDir, REDIS_PREFIX: `mail-test-${randomUUID()}` },
    db: testDb.db,
    log: pino({ level: 'silent' }),
    redis,
    clock: systemClock,
  };
  user = await makeUser(testDb.db, { username: `ava${randomUUID().slice(0, 8)}`, confirmed: false });
  queuedAt = Math.floor(Date.now() / 1000) * 1000 - 5000;
});
afterEach(async () => {
  await rm(path.dirname(outboxDir), { recursive: true, force: true });
});

function job<N extends 'confirm-email' | 'reset-password'>(name: N, id: string, opts: { userId?: string; timestamp?: number } = {}): MailJob<N> {
  return { id, name, timestamp: opts.timestamp ?? queuedAt, data: { userId: opts.userId ?? user.id } };
}

async function outbox() {
  const files = (await readdir(outboxDir).catch(() => [] as string[])).sort();
  return Promise.all(files.map(async (f) => ({ file: f, mail: JSON.parse(await readFile(path.join(outboxDir, f), 'utf8')) })));
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Unused, unexpired tokens of the user: the links that would work now. */
async function validTokenHashes(userId: string, purpose: EmailTokenPurpose) {
  const rows = await testDb.db
    .selectFrom('email_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .execute();
  return rows.map((r) => r.id);
}

describe('mail jobs (outbox transport)', () => {
  it('confirm-email makes the token when it sends: the link works, the database keeps only its hash', async () => {
    const result = await mailHandlers['confirm-email'](job('confirm-email', '42'), deps);
    expect(result).toMatchObject({ via: 'outbox', delivered: true });

    const files = await outbox();
    expect(files).toHaveLength(1);
    const { file, mail } = files[0]!;
    expect(file).toBe(`${queuedAt}-${user.email}-42.json`);
    const token = tokenOf(mail.link);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail).toEqual({
      to: user.email,
      subject: expect.stringContaining('Confirm your email'),
      text: expect.stringContaining(`http://app.test/auth/confirm?token=${token}`),
      html: expect.stringContaining(`href="http://app.test/auth/confirm?token=${token}"`),
      link: `http://app.test/auth/confirm?token=${token}`,
      createdAt: new Date(queuedAt).toISOString(),
    });
    expect(await validTokenHashes(user.id, 'confirm_email')).toEqual([hashToken(token)]);
    const stored = await testDb.db.selectFrom('email_tokens').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.expires_at.getTime()).toBe(queuedAt + 48 * 3600_000);
  });

  it('reset-password links to the reset page with a reset token valid for an hour', async () => {
    await mailHandlers['reset-password'](job('reset-password', '7'), deps);
    const [only] = await outbox();
    const token = tokenOf(only!.mail.link);
    expect(only!.mail.link).toBe(`http://app.test/auth/reset-password?token=${token}`);
    expect(only!.mail.subject).toContain('Reset your');
    expect(only!.mail.html).toContain(`href="http://app.test/auth/reset-password?token=${token}"`);
    const stored = await testDb.db.selectFrom('email_tokens').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: user.id, purpose: 'reset_password', used_at: null });
    expect(stored.expires_at.getTime()).toBe(queuedAt + 3600_000);
    expect(await validTokenHashes(user.id, 'confirm_email')).toEqual([]);
  });

  it('is idempotent: running the same job id again writes nothing and makes no new token', async () => {
    const first = await mailHandlers['confirm-email'](job('confirm-email', '99'), deps);
    const before = await outbox();
    const mailed = hashToken(tokenOf(before[0]!.mail.link));
    const second = await mailHandlers['confirm-email'](job('confirm-email', '99'), deps);
    expect(first).toMatchObject({ delivered: true });
    expect(second).toMatchObject({ delivered: false, ref: 'ref' in first ? first.ref : null });
    expect(await outbox()).toEqual(before);
    // the mailed link is still the one that works
    expect(await validTokenHashes(user.id, 'confirm_email')).toEqual([mailed]);
    // no temporary files are left behind
    expect((await readdir(outboxDir)).filter((f) => !f.endsWith('.json'))).toEqual([]);
  });

  it('a retry after a failed send retires the token it made: one valid link per job, other jobs untouched', async () => {
    const outboxTransport = createOutboxTransport(outboxDir, deps.log);
    let failures = 1;
    const flaky: MailTransport = {
      ...outboxTransport,
      async send(mail, key) {
        if (failures-- > 0) throw new Error('SMTP 421 try again later');
        return outboxTransport.send(mail, key);
      },
    };
    // an earlier reset job of the same user, already sent
    await mailHandlers['reset-password'](job('reset-password', '100', { timestamp: queuedAt - 60_000 }), deps);
    const [earlier] = await outbox();

    const flakyDeps = { ...deps, transport: flaky };
    await expect(mailHandlers['reset-password'](job('reset-password', '101'), flakyDeps)).rejects.toThrow('SMTP 421');
    expect(await validTokenHashes(user.id, 'reset_password')).toHaveLength(2);
    await mailHandlers['reset-password'](job('reset-password', '101'), flakyDeps);

    const mails = await outbox();
    expect(mails).toHaveLength(2);
    const retried = mails.find((m) => m.file.endsWith('-101.json'))!;
    // the retried job's mailed link and the earlier job's link work; the failed attempt's does not
    expect((await validTokenHashes(user.id, 'reset_password')).sort()).toEqual(
      [hashToken(tokenOf(earlier!.mail.link)), hashToken(tokenOf(retried.mail.link))].sort(),
    );
  });

  it('a job that waited past its link lifetime sends nothing', async () => {
    const result = await mailHandlers['reset-password'](job('reset-password', '102', { timestamp: Date.now() - 3600_000 - 1 }), deps);
    expect(result).toEqual({ skipped: 'expired' });
    expect(await outbox()).toEqual([]);
    expect(await validTokenHashes(user.id, 'reset_password')).toEqual([]);
  });

  it('concurrent runs of one job write a single file and leave a single valid token', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => mailHandlers['confirm-email'](job('confirm-email', '5'), deps)));
    expect(results.filter((r) => 'delivered' in r && r.delivered)).toHaveLength(1);
    expect(await outbox()).toHaveLength(1);
    expect(await validTokenHashes(user.id, 'confirm_email')).toHaveLength(1);
  });

  it('sends nothing to a confirmed address or a deleted account', async () => {
    const confirmed = await makeUser(testDb.db);
    expect(await mailHandlers['confirm-email'](job('confirm-email', '11', { userId: confirmed.id }), deps)).toEqual({ skipped: 'already-confirmed' });
    expect(await mailHandlers['reset-password'](job('reset-password', '12', { userId: randomUUID() }), deps)).toEqual({ skipped: 'no-account' });
    expect(await outbox()).toEqual([]);
    expect(await testDb.db.selectFrom('email_tokens').select('id').where('user_id', '=', confirmed.id).execute()).toEqual([]);
    // a confirmed account can still reset its password
    await mailHandlers['reset-password'](job('reset-password', '13', { userId: confirmed.id }), deps);
    expect(await outbox()).toHaveLength(1);
  });

  it('escapes the link in HTML', async () => {
    deps.config = { ...deps.config, appUrl: 'http://app.test/"><script>' };
    await mailHandlers['confirm-email'](job('confirm-email', '8'), deps);
    const [only] = await outbox();
    expect(only!.mail.html).not.toContain('<script>');
    expect(only!.mail.html).toContain('&quot;&gt;&lt;script&gt;');
  });
});
