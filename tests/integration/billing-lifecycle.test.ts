import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinProvider, failingProvider } from '../../core/payments/builtin';
import { addCalendarMonths } from '../../common/billing-periods';
import { fixedClock } from '../../core/clock';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { purchase } from '../../domain/billing/purchase';
import { DAY_MS, GRACE_DAYS } from '../../domain/billing/periods';
import { activeSubscriptionWhere } from '../../domain/subscriptions/active';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { socketPool } from '../helpers/sockets';
import { clientAs } from '../helpers/trpc';
import { clockStart } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { storedRand } from '../helpers/money';

/**
 * The billing lifecycle on a clock the test moves (domain/billing/clock.ts): renewal, price
 * changes, past due and its grace, cancel to the period end, expiry, Premium lapsing, reminders,
 * and the media route following along.
 */
const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

const T0 = clockStart();

async function setup(interval: 'weekly' | 'monthly' | 'annually' = 'weekly') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fan = await makeUser(app.deps.db);
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: interval, discountPercentage: 20 });
  return { creator, fan, tier, asCreator };
}

async function subscribeAt(clock: ReturnType<typeof fixedClock>, fan: MadeUser, tierId: string, provider = builtinProvider, kind: 'creator' | 'premium' = 'creator') {
  const { result } = await purchase(
    { db: app.deps.db, provider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
    { userId: fan.id, email: fan.email, username: fan.username, tierId, idempotencyKey: randomUUID(), kind },
  );
  if (result.kind !== 'subscribed') throw new Error(`expected a subscription, got ${result.kind}`);
  return result.subscriptionId;
}

const subscription = (id: string) =>
  app.deps.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const paymentsOf = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select(['amount_cents', 'status']).where('user_id', '=', userId).orderBy('created_at').execute()).map((p) => ({
    amount: storedRand(p.amount_cents),
    status: p.status,
  }));
const activeAt = async (id: string, at: Date) =>
  Boolean(await app.deps.db.selectFrom('subscriptions').select('id').where('id', '=', id).where(activeSubscriptionWhere('subscriptions', at)).executeTakeFirst());

describe('renewal', () => {
  it('renews a due subscription at the price the fan agreed to from the old period end; a rise reaches new fans only', async () => {
    const { fan, tier, asCreator } = await setup();
    const clock = fixedClock(T0);
    const id = await subscribeAt(clock, fan, tier.id);
    expect((await subscription(id)).current_period_end).toEqual(new Date(T0.getTime() + 7 * DAY_MS));

    // the creator raises the price mid-period: the paid period is untouched
    await asCreator.trpc.tiers.update.mutate({ id: tier.id, name: 'Gold', price: '60', paymentInterval: 'weekly', discountPercentage: 20 });
    expect(await paymentsOf(fan.id)).toEqual([{ amount: '40.00', status: 'succeeded' }]);

    // not due yet: nothing happens
    clock.set(new Date(T0.getTime() + 5 * DAY_MS));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, expired: 0 });

    // half an hour before the end: renewed at the agreed price (the rise is not theirs), period from the old end
    clock.set(new Date(T0.getTime() + 7 * DAY_MS - 30 * 60_000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 1, expired: 0 });
    const renewed = await subscription(id);
    expect(renewed.current_period_start).toEqual(new Date(T0.getTime() + 7 * DAY_MS));
    expect(renewed.current_period_end).toEqual(new Date(T0.getTime() + 14 * DAY_MS));
    expect(await paymentsOf(fan.id)).toEqual([
      { amount: '40.00', status: 'succeeded' },
      { amount: '40.00', status: 'succeeded' },
    ]);
    // running again (or on a second worker) charges the period once
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0 });
    expect(await paymentsOf(fan.id)).toHaveLength(2);
  });

  it('a tier change takes effect at the renewal, at the new tier’s price', async () => {
    const { creator, fan, tier, asCreator } = await setup();
    const silver = await asCreator.trpc.tiers.create.mutate({ name: 'Silver', price: '20', paymentInterval: 'monthly' });
    const clock = fixedClock(T0);
    const id = await subscribeAt(clock, fan, tier.id);
    await (await clientAs(app, fan.id)).trpc.subscriptions.subscribe.mutate({ tierId: silver.id, idempotencyKey: randomUUID(), confirmedAmount: '20.00' });
    clock.set(new Date(T0.getTime() + 7 * DAY_MS));
    await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY });
    const row = await subscription(id);
    expect(row).toMatchObject({ tier_id: silver.id, next_tier_id: null });
    // a calendar month (Silver is monthly) from the weekly period's end
    expect(row.current_period_end).toEqual(addCalendarMonths(new Date(T0.getTime() + 7 * DAY_MS), 1));
    expect((await paymentsOf(fan.id)).map((p) => p.amount)).toEqual(['40.00', '20.00']);
    const mirror = await app.deps.db.selectFrom('subscribers').select('tier_id').where('creator_id', '=', creator.id).executeTakeFirstOrThrow();
    expect(mirror.tier_id).toBe(silver.id);
  });
});

describe('past due, grace and expiry', () => {
  it('a failed renewal is past due with access for the grace period, then the subscription ends and the fan hears it', async () => {
    const { creator, fan, tier } = await setup();
    const clock = fixedClock(T0);
    const id = await subscribeAt(clock, fan, tier.id);
    const end = new Date(T0.getTime() + 7 * DAY_MS);
    const socket = await sockets.open(app, fan);

    clock.set(end);
    const declined = failingProvider();
    expect(await runBillingMaintenance({ db: app.deps.db, provider: declined, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, pastDue: 1, expired: 0 });
    const pastDue = await subscription(id);
    expect(pastDue).toMatchObject({ status: 'active', past_due_since: end, grace_until: new Date(end.getTime() + GRACE_DAYS * DAY_MS) });
    expect(await paymentsOf(fan.id)).toEqual([
      { amount: '40.00', status: 'succeeded' },
      { amount: '40.00', status: 'failed' },
    ]);
    // still entitled during the grace
    expect(await activeAt(id, new Date(end.getTime() + DAY_MS))).toBe(true);
    const mine = await (await clientAs(app, fan.id)).trpc.subscriptions.mine.query();
    expect(mine[0]).toMatchObject({ status: 'past_due', graceUntil: new Date(end.getTime() + GRACE_DAYS * DAY_MS) });

    // retried each run without more failed rows; after the grace it ends
    clock.set(new Date(end.getTime() + DAY_MS));
    await runBillingMaintenance({ db: app.deps.db, provider: declined, clock, earnings: DEFAULT_EARNINGS_POLICY });
    expect(await paymentsOf(fan.id)).toHaveLength(2);
    const lapse = new Promise((resolve) => socket.once('entitlement:changed', resolve));
    clock.set(new Date(end.getTime() + GRACE_DAYS * DAY_MS + 60_000));
    const run = await billingMaintenance({ ...app.deps, clock, payments: declined });
    expect(run).toMatchObject({ expired: 1 });
    expect(await lapse).toEqual({ subject: { kind: 'creator', creatorId: creator.id }, active: false });
    expect((await subscription(id)).status).toBe('expired');
    const mirror = await app.deps.db.selectFrom('subscribers').select('status').where('subscriber_id', '=', fan.id).executeTakeFirstOrThrow();
    expect(mirror.status).toBe('expired');
  });

  it('a past-due subscription whose retry succeeds is renewed from its old end and no longer past due', async () => {
    const { fan, tier } = await setup();
    const clock = fixedClock(T0);
    const id = await subscribeAt(clock, fan, tier.id);
    const end = new Date(T0.getTime() + 7 * DAY_MS);
    clock.set(end);
    await runBillingMaintenance({ db: app.deps.db, provider: failingProvider(), clock, earnings: DEFAULT_EARNINGS_POLICY });
    clock.set(new Date(end.getTime() + DAY_MS));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 1 });
    expect(await subscription(id)).toMatchObject({ past_due_since: null, grace_until: null, current_period_end: new Date(end.getTime() + 7 * DAY_MS) });
  });
});

describe('cancel to the period end, and the media route', () => {
  it('cancelled: media 200 until the period end, then the job ends it and every media URL answers 403; resume undoes a cancel', async () => {
    const { creator, fan, tier } = await setup();
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
    const asFan = await clientAs(app, fan.id);
    const result = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    if (result.kind !== 'subscribed') throw new Error('expected a subscription');
    const id = result.subscriptionId;
    const variants = ['original', 'web', 'thumb'];
    for (const v of variants) expect((await asFan.fetch(`/media/${post.id}/${v}`)).status).toBe(200);

    // resume undoes a cancel: the job renews it
    await asFan.trpc.subscriptions.cancel.mutate({ id });
    await asFan.trpc.subscriptions.resume.mutate({ id });
    const end = (await subscription(id)).current_period_end;
    const clock = fixedClock(new Date(end.getTime() + 60_000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 1, expired: 0 });

    // cancel: still 200 now; the job does not renew it, and once the clock passes the end it ends
    await asFan.trpc.subscriptions.cancel.mutate({ id });
    for (const v of variants) expect((await asFan.fetch(`/media/${post.id}/${v}`)).status).toBe(200);
    const newEnd = (await subscription(id)).current_period_end;
    clock.set(new Date(newEnd.getTime() - 30 * 60_000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, expired: 0 });
    clock.set(new Date(newEnd.getTime() + 1000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, expired: 1 });
    for (const v of variants) expect((await asFan.fetch(`/media/${post.id}/${v}`)).status).toBe(403);
    expect((await asFan.fetch(`/media/${post.id}/preview`)).status).toBe(200);
    expect((await asFan.trpc.subscriptions.mine.query())[0]).toMatchObject({ status: 'ended' });
    expect((await asFan.trpc.profiles.byUsername.query({ username: creator.username })).viewer.isSubscribed).toBe(false);
    // two charges in the ledger: the first period and the renewal
    expect(await paymentsOf(fan.id)).toHaveLength(2);
  });
});

describe('Premium lapses', () => {
  it('a cancelled Premium ends after its 30 days and is_premium goes off', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const premium = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).where('name', '=', 'Premium').executeTakeFirstOrThrow();
    const clock = fixedClock(T0);
    const id = await subscribeAt(clock, user, premium.id, builtinProvider, 'premium');
    const isPremium = async () => (await app.deps.db.selectFrom('profiles').select('is_premium').where('id', '=', user.id).executeTakeFirstOrThrow()).is_premium;
    expect(await isPremium()).toBe(true);
    expect((await subscription(id)).current_period_end).toEqual(new Date(T0.getTime() + 30 * DAY_MS));
    await app.deps.db.updateTable('subscriptions').set({ cancel_at_period_end: true }).where('id', '=', id).execute();
    clock.set(new Date(T0.getTime() + 30 * DAY_MS + 1000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ expired: 1 });
    expect(await isPremium()).toBe(false);
  });
});

describe('renewal reminders', () => {
  it('an annual subscription gets one reminder a few days before it renews (only with activity e-mail on)', async () => {
    const { fan, tier } = await setup('annually');
    const quiet = await makeUser(app.deps.db);
    await app.deps.db.updateTable('notification_settings').set({ email_notifications: false }).where('user_id', '=', quiet.id).execute();
    const clock = fixedClock(T0);
    await subscribeAt(clock, fan, tier.id);
    await subscribeAt(clock, quiet, tier.id);
    // five days before the year's end
    clock.set(new Date(addCalendarMonths(T0, 12).getTime() - 5 * DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ reminders: 2 });
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ reminders: 0 });
    const mails = await app.outbox();
    expect(mails.filter((m) => m.to === fan.email && m.subject.includes('renews on'))).toHaveLength(1);
    expect(mails.filter((m) => m.to === quiet.email)).toEqual([]);
  });
});

describe('a failed first charge', () => {
  it("writes nothing and answers the spec's failure words", async () => {
    const { fan, tier } = await setup();
    const clock = fixedClock(T0);
    await expect(subscribeAt(clock, fan, tier.id, failingProvider())).rejects.toThrow('Failed to process subscription. Please try again.');
    expect(await app.deps.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('subscribers').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);
    expect(await paymentsOf(fan.id)).toEqual([]);
  });
});

describe('Stripe subscriptions in the job', () => {
  it('are not renewed here and not ended at their period end (the webhook renews them), but end after the grace without one', async () => {
    const { fan, tier } = await setup();
    const { recordSubscription } = await import('../../domain/subscriptions/write');
    const id = await recordSubscription(app.deps.db, {
      subscriberId: fan.id, tierId: tier.id, status: 'active', periodStart: new Date(T0.getTime() - 7 * DAY_MS), periodEnd: T0,
      provider: 'stripe', providerSubscriptionId: 'sub_job_1',
    });
    const clock = fixedClock(new Date(T0.getTime() + 60 * 60_000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, expired: 0 });
    expect(await paymentsOf(fan.id)).toEqual([]);
    clock.set(new Date(T0.getTime() + (GRACE_DAYS + 1) * DAY_MS));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ expired: 1 });
    expect((await subscription(id)).status).toBe('expired');
  });
});
