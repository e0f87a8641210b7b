import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { builtinProvider, failingProvider } from '../../core/payments/builtin';
import { fixedClock } from '../../core/clock';
import { DAY_MS, GRACE_DAYS } from '../../domain/billing/periods';
import { purchase } from '../../domain/billing/purchase';
import { billingMaintenance } from '../../worker/jobs/billing';
import { mailHandlers, type MailJob } from '../../worker/jobs/mail';
import { makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs } from '../helpers/trpc';
import { clockStart } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 22 item 9: a renewal that fails tells the fan by e-mail, once per period however often the
 * job retries the charge, what happens now and what to do (the subscriptions screen says the same).
 */
const app = useFileServer({ emptyUsers: true });
const T0 = clockStart();
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** '3 December 2026': the end of the grace, as the mail writes it */
const longDate = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;

describe('a failed renewal', () => {
  it('mails the fan once, with the amount, the date access lasts until and where to manage it', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price: '3428.20', paymentInterval: 'weekly' });
    const clock = fixedClock(T0);
    await purchase(
      { db: app.deps.db, provider: builtinProvider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
      { userId: fan.id, email: fan.email, username: fan.username, tierId: tier.id, idempotencyKey: randomUUID(), kind: 'creator', confirmedCents: 3428_20 },
    );
    const failures = async () => (await app.outbox()).filter((m) => m.to === fan.email && m.subject.includes('failed'));
    expect(await failures()).toEqual([]);

    const declined = failingProvider();
    clock.set(new Date(T0.getTime() + 7 * DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock, payments: declined })).toMatchObject({ pastDue: 1 });
    // the job retries on its next runs: no second mail
    clock.set(new Date(T0.getTime() + 8 * DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock, payments: declined })).toMatchObject({ pastDue: 1 });

    const mails = await failures();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your payment of R3,428.20 failed');
    expect(mails[0]!.text).toContain(`You keep access until ${longDate(new Date(T0.getTime() + (7 + GRACE_DAYS) * DAY_MS))}`);
    expect(mails[0]!.text).toContain('cancel it on your subscriptions page');
    expect(mails[0]!.text).toContain(`${app.deps.config.appUrl}/settings/account/subscriptions`);
  });

  it("honours the fan's own e-mail box for failed renewals (the kinds × channels table, issue 28)", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    await app.deps.db.insertInto('notification_preferences').values({ user_id: fan.id, kind: 'renewal-failed', in_app: true, email: false, push: true, updated_at: new Date() }).execute();
    const tier = await (await clientAs(app, creator.id)).trpc.tiers.create.mutate({ name: 'Gold', price: '50.00', paymentInterval: 'weekly' });
    const clock = fixedClock(T0);
    await purchase(
      { db: app.deps.db, provider: builtinProvider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
      { userId: fan.id, email: fan.email, username: fan.username, tierId: tier.id, idempotencyKey: randomUUID(), kind: 'creator', confirmedCents: 50_00 },
    );
    clock.set(new Date(T0.getTime() + 7 * DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock, payments: failingProvider() })).toMatchObject({ pastDue: 1 });
    const failed = await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).where('status', '=', 'failed').executeTakeFirstOrThrow();

    const deps = { config: app.deps.config, db: app.deps.db, log: pino({ level: 'silent' }), redis: app.deps.redis, clock: app.deps.clock };
    const send = (id: string) => mailHandlers['renewal-failed']({ id, timestamp: Date.now(), name: 'renewal-failed', data: { paymentId: failed.id } } as unknown as MailJob<'renewal-failed'>, deps);
    expect(await send(`box-off-${failed.id}`)).toEqual({ skipped: 'no-consent' });
    await app.deps.db.updateTable('notification_preferences').set({ email: true }).where('user_id', '=', fan.id).execute();
    expect(await send(`box-on-${failed.id}`)).toMatchObject({ via: 'outbox', delivered: true });
  });
});
