import type { JobType } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../common/jobs';
import { SESSION } from '../../common/limits';
import { useTestServer } from '../helpers/test-server';

// The queue dashboard (/admin/queues) shows every job's data to admins, and Redis keeps it: no job
// may carry a token, a password or a session, in any state.
const app = useTestServer();

const STATES: JobType[] = ['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized', 'waiting-children'];

/** Every job of every queue, in every state, as the dashboard and Redis hold it (data, options, results, reasons). */
async function allJobs() {
  const jobs = await Promise.all(QUEUE_NAMES.map((name) => app.deps.queues[name].getJobs(STATES)));
  return jobs.flat().filter((job) => job !== undefined);
}

/** Every key and value under this server's Redis prefix, whatever its type. */
async function redisDump(): Promise<string> {
  const { redis, config } = app.deps;
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.REDIS_PREFIX}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string' ? await redis.get(key)
        : type === 'hash' ? await redis.hgetall(key)
        : type === 'list' ? await redis.lrange(key, 0, -1)
        : type === 'set' ? await redis.smembers(key)
        : type === 'zset' ? await redis.zrange(key, '0', '-1')
        : type === 'stream' ? await redis.xrange(key, '-', '+')
        : null;
      parts.push(key, JSON.stringify(value));
    }
  } while (cursor !== '0');
  return parts.join('\n');
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function linkTo(email: string, kind: 'confirm' | 'reset-password') {
  const mail = (await app.outbox()).filter((m) => m.to === email && m.link.includes(`/auth/${kind}?`)).at(-1);
  if (!mail) throw new Error(`no ${kind} mail for ${email}`);
  return tokenOf(mail.link);
}

describe('no secret in any job', () => {
  it('sign-up, confirmation, password reset and sign-in leave no token, password or session in any queue or Redis', async () => {
    const email = 'secret-keeper@example.com';
    const password = 'first secret password';
    const newPassword = 'second secret password';
    const client = app.client();

    // While the mail worker waits, the queued job is there to read: it names the user only.
    await app.deps.queues.mail.pause();
    await client.trpc.auth.signUp.mutate({
      email,
      password,
      username: 'secretkeeper',
      firstName: 'Sec',
      surname: 'Keeper',
      dateOfBirth: '1990-01-01',
      acceptTerms: true,
    });
    const user = await app.deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const queued = (await allJobs()).filter((job) => job.queueName === 'mail');
    expect(queued.map((job) => [job.name, job.data])).toEqual([['confirm-email', { userId: user.id }]]);
    // and the dump below reads job data where Redis keeps it
    expect(await redisDump()).toContain(user.id);
    await app.deps.queues.mail.resume();

    const confirmToken = await linkTo(email, 'confirm');
    await client.trpc.auth.confirmEmail.mutate({ token: confirmToken });
    await client.trpc.auth.requestPasswordReset.mutate({ email });
    const resetToken = await linkTo(email, 'reset-password');
    await client.trpc.auth.resetPassword.mutate({ token: resetToken, password: newPassword });
    await client.trpc.auth.signIn.mutate({ email, password: newPassword });
    const session = client.cookies().get(SESSION.cookieName)!;
    expect(session).toBeTruthy();
    await app.drain('mail');

    // sent mail jobs are removed at once; what is left (if anything) holds nothing secret
    expect(await app.deps.queues.mail.getJobCounts('completed')).toEqual({ completed: 0 });
    const serialized = JSON.stringify((await allJobs()).map((job) => job.asJSON()));
    const redis = await redisDump();
    for (const secret of [confirmToken, resetToken, password, newPassword, session]) {
      expect(serialized).not.toContain(secret);
      expect(redis).not.toContain(secret);
    }
  });
});
