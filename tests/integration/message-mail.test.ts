import { EMAIL_CAP_PER_HOUR } from '../../common/notifications';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { mailHandlers, type MailJob } from '../../worker/jobs/mail';
import { makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

// Issue 23 §5: mail cannot be used to flood. No mail worker runs here, so the delayed job can be
// looked at before it is run by hand; the quiet period is long enough that the 30 sends share one.
const app = useTestServer({ workerQueues: [], env: { MESSAGE_MAIL_QUIET_MS: String(10 * 24 * 3600_000) } });

describe('new-message mail', () => {
  it('30 messages to an offline recipient make one mail, a summary whose subject carries no link from the name', async () => {
    const [sender, recipient] = await Promise.all([makeUser(app.deps.db), makeUser(app.deps.db)]);
    await app.deps.db.updateTable('profiles').set({ display_name: 'visit evil.com now' }).where('id', '=', sender.id).execute();
    const asSender = await clientAs(app, sender.id);
    for (let i = 0; i < 30; i++) {
      await asSender.trpc.messages.send.mutate({ username: recipient.username, content: `flood ${i}`, clientId: randomUUID() });
    }

    const jobs = await app.deps.queues.mail.getJobs(['delayed', 'waiting']);
    const mine = jobs.filter((j) => j.name === 'new-message' && j.data.recipientId === recipient.id);
    expect(mine).toHaveLength(1);
    const [job] = mine;
    // the job names the two users and the period only: no text, no address
    expect(Object.keys(job!.data).sort()).toEqual(['periodEnd', 'periodStart', 'recipientId', 'senderId']);

    await job!.remove();
    const deps = { config: app.deps.config, db: app.deps.db, log: pino({ level: 'silent' }), redis: app.deps.redis, clock: app.deps.clock };
    const result = await mailHandlers['new-message'](job as unknown as MailJob<'new-message'>, deps);
    expect(result).toMatchObject({ delivered: true });
    const mails = (await app.outbox()).filter((m) => m.to === recipient.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('30 new messages from visit now on CreatorHub');
    expect(mails[0]!.text).not.toMatch(/evil|flood/);
    expect(mails[0]!.link).toBe(`${app.url}/messages/${sender.username}`);

    // no flood: at most EMAIL_CAP_PER_HOUR such mails in an hour (each job once, however often it is retried)
    const again = (n: number) => mailHandlers['new-message']({ ...job!, id: `${job!.id}-${n}` } as unknown as MailJob<'new-message'>, deps);
    for (let n = 1; n < EMAIL_CAP_PER_HOUR; n++) expect(await again(n)).toMatchObject({ delivered: true });
    expect(await again(EMAIL_CAP_PER_HOUR)).toEqual({ skipped: 'cap' });
    // a retry of a job already counted is not refused by the cap (and the transport does not send it twice)
    expect(await again(1)).toMatchObject({ via: 'outbox' });
    expect((await app.outbox()).filter((m) => m.to === recipient.email)).toHaveLength(EMAIL_CAP_PER_HOUR);

    // read before the period ends: nothing to tell, no mail
    await app.deps.db.updateTable('messages').set({ read_at: new Date() }).where('recipient_id', '=', recipient.id).execute();
    expect(await mailHandlers['new-message']({ ...job!, id: `${job!.id}-again` } as unknown as MailJob<'new-message'>, deps)).toEqual({ skipped: 'expired' });
  });
});
