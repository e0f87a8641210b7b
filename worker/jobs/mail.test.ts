import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailHandlers, type MailDeps, type MailJob } from './mail';

let outboxDir: string;
let deps: MailDeps;

beforeEach(async () => {
  outboxDir = path.join(await mkdtemp(path.join(tmpdir(), 'mail-test-')), 'outbox');
  // a fresh config object per test: the transport is cached per settings object
  deps = {
    config: { appUrl: 'http://app.test', SMTP_URL: undefined, MAIL_FROM: 'CreatorHub <no-reply@app.test>', OUTBOX_DIR: outboxDir },
    log: pino({ level: 'silent' }),
  };
});
afterEach(async () => {
  await rm(path.dirname(outboxDir), { recursive: true, force: true });
});

function job<N extends 'confirm-email' | 'reset-password'>(name: N, id: string, token: string): MailJob<N> {
  return { id, name, timestamp: Date.UTC(2025, 1, 3, 10, 0, 0), data: { userId: 'u1', email: 'ava@example.com', token } };
}

async function outbox() {
  const files = (await readdir(outboxDir)).sort();
  return Promise.all(files.map(async (f) => ({ file: f, mail: JSON.parse(await readFile(path.join(outboxDir, f), 'utf8')) })));
}

describe('mail jobs (outbox transport)', () => {
  it('confirm-email writes one JSON message with the confirmation link', async () => {
    const result = await mailHandlers['confirm-email'](job('confirm-email', '42', 'tok_abc-123'), deps);
    expect(result).toMatchObject({ via: 'outbox', delivered: true });

    const files = await outbox();
    expect(files).toHaveLength(1);
    const { file, mail } = files[0]!;
    expect(file).toBe(`${Date.UTC(2025, 1, 3, 10, 0, 0)}-ava@example.com-42.json`);
    expect(mail).toEqual({
      to: 'ava@example.com',
      subject: expect.stringContaining('Confirm your email'),
      text: expect.stringContaining('http://app.test/auth/confirm?token=tok_abc-123'),
      html: expect.stringContaining('href="http://app.test/auth/confirm?token=tok_abc-123"'),
      link: 'http://app.test/auth/confirm?token=tok_abc-123',
      createdAt: '2025-02-03T10:00:00.000Z',
    });
  });

  it('reset-password links to the reset page', async () => {
    await mailHandlers['reset-password'](job('reset-password', '7', 'reset_tok'), deps);
    const [only] = await outbox();
    expect(only!.mail.link).toBe('http://app.test/auth/reset-password?token=reset_tok');
    expect(only!.mail.subject).toContain('Reset your');
    expect(only!.mail.html).toContain('href="http://app.test/auth/reset-password?token=reset_tok"');
  });

  it('is idempotent: running the same job id again writes nothing new', async () => {
    const first = await mailHandlers['confirm-email'](job('confirm-email', '99', 'tok_1'), deps);
    const before = await outbox();
    const second = await mailHandlers['confirm-email'](job('confirm-email', '99', 'tok_1'), deps);
    expect(first.delivered).toBe(true);
    expect(second).toMatchObject({ delivered: false, ref: first.ref });
    expect(await outbox()).toEqual(before);
    // no temporary files are left behind
    expect((await readdir(outboxDir)).filter((f) => !f.endsWith('.json'))).toEqual([]);

    // a different job id is a different message
    await mailHandlers['confirm-email'](job('confirm-email', '100', 'tok_2'), deps);
    expect(await outbox()).toHaveLength(2);
  });

  it('concurrent runs of one job still write a single file', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => mailHandlers['confirm-email'](job('confirm-email', '5', 'tok_c'), deps)),
    );
    expect(results.filter((r) => r.delivered)).toHaveLength(1);
    expect(await outbox()).toHaveLength(1);
  });

  it('escapes the link in HTML', async () => {
    deps.config = { ...deps.config, appUrl: 'http://app.test/"><script>' };
    await mailHandlers['confirm-email'](job('confirm-email', '8', 'tok'), deps);
    const [only] = await outbox();
    expect(only!.mail.html).not.toContain('<script>');
    expect(only!.mail.html).toContain('&quot;&gt;&lt;script&gt;');
  });
});
