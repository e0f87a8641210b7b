import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock';
import { DAY_MS } from '../../domain/billing/periods';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makeUser } from '../helpers/factories';
import { clockStart } from '../helpers/test-clock';
import { useTestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 47 item 7: a trial reads as a trial. While a subscription is in its free trial, the fan's
 * list (`subscriptions.mine`, Settings > Subscriptions) says when the trial ends (`trialEndsAt`),
 * and the fan gets one reminder mail two days before the first charge, through the billing
 * maintenance job and the mail outbox, only with e-mail notifications on; once converted to paid
 * it is an ordinary subscription again.
 */
const T0 = clockStart();
const clock = fixedClock(T0);
const app = useTestServer({ clock });

describe('a free trial', () => {
  it('reads as a trial in the fan list and reminds the fan once, two days before the first charge (only with e-mail on)', async () => {
    clock.set(T0);
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Silver', price: '49', paymentInterval: 'monthly', discountPercentage: 0 });
    const link = await asCreator.trpc.trials.create.mutate({ tierId: tier.id, days: 10, maxClaims: 5, expiresAt: new Date(T0.getTime() + 30 * DAY_MS) });
    const fan = await makeUser(app.deps.db);
    const quiet = await makeUser(app.deps.db);
    await app.deps.db.updateTable('notification_settings').set({ email_notifications: false }).where('user_id', '=', quiet.id).execute();
    const asFan = await clientAs(app, fan.id);
    const asQuiet = await clientAs(app, quiet.id);
    const claim = await asFan.trpc.trials.claim.mutate({ code: link.code, idempotencyKey: randomUUID(), confirmedAmount: '49.00' });
    await asQuiet.trpc.trials.claim.mutate({ code: link.code, idempotencyKey: randomUUID(), confirmedAmount: '49.00' });
    const trialEnd = new Date(T0.getTime() + 10 * DAY_MS);
    expect(claim.trialEndsAt).toEqual(trialEnd);

    // the fan's list says it is a trial, and until when
    const [mine] = await asFan.trpc.subscriptions.mine.query();
    expect(mine).toMatchObject({ status: 'active', trialEndsAt: trialEnd, currentPeriodEnd: trialEnd, tier: { discountedPrice: '49.00', paymentInterval: 'monthly' } });

    const mailsTo = async (email: string) => (await app.outbox()).filter((m) => m.to === email && m.subject.includes('free trial'));
    // three days before the first charge: no reminder yet
    clock.set(new Date(trialEnd.getTime() - 3 * DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ reminders: 0 });
    // two days before: one reminder each (marked once), mailed only to the fan with e-mail on
    clock.set(new Date(trialEnd.getTime() - 2 * DAY_MS + 60_000));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ renewed: 0, reminders: 2 });
    // the next runs (the job runs every few minutes, and the day before) send nothing more
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ reminders: 0 });
    clock.set(new Date(trialEnd.getTime() - DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ renewed: 0, reminders: 0 });
    await expect.poll(async () => (await mailsTo(fan.email)).length, { timeout: 15_000 }).toBe(1);
    const [mail] = await mailsTo(fan.email);
    expect(mail!.text).toContain('Then you pay R49.00 every month');
    expect(await mailsTo(quiet.email)).toEqual([]);

    // the first charge: a paid subscription now, not a trial, and no further trial reminder
    clock.set(new Date(trialEnd.getTime() + 60_000));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ renewed: 2, reminders: 0 });
    const [after] = await asFan.trpc.subscriptions.mine.query();
    expect(after).toMatchObject({ status: 'active', trialEndsAt: null });
    expect(after!.currentPeriodEnd.getTime()).toBeGreaterThan(trialEnd.getTime());
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(fan.email)).toHaveLength(1);
  });
});
