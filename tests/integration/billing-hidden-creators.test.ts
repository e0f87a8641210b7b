import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '../../common/texts';
import { builtinProvider } from '../../core/payments/builtin';
import { fixedClock } from '../../core/clock';
import { RETRY_AFTER_FAILURE_MS } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { purchase } from '../../domain/billing/purchase';
import { recordSubscription } from '../../domain/subscriptions/write';
import { hashPassword } from '../../server/auth/password';
import { insertPeople } from '../../scripts/seed/demo';
import { prng } from '../../scripts/seed/media';
import { planPeople } from '../../scripts/seed/people';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';
import { clockStart } from '../helpers/test-clock';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Issue 22 item 3: fans never pay for what they cannot see. A subscription to a creator whose
 * profile turns private or hidden is not renewed: the billing-maintenance run sets it to end at
 * its period end (telling Stripe first for a Stripe subscription), the fan is mailed once, and
 * nothing more is charged. 'friends' profiles are seen by their subscribers and keep renewing.
 * The server runs with Stripe configured (a fake Stripe API on a local port), so the job reaches
 * Stripe as in production; built-in subscriptions still renew through the job there.
 */
const { app, fakeStripe } = useStripeTestServer();

const T0 = clockStart();
const WEEK = 7 * DAY_MS;

async function creatorWithTier(visibility: 'public' | 'friends' = 'public') {
  const creator = await makeUser(app.deps.db, { isCreator: true, visibility });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'weekly', discountPercentage: 20 });
  return { creator, asCreator, tier };
}

async function subscribeAt(clock: ReturnType<typeof fixedClock>, fan: MadeUser, tierId: string) {
  const { result } = await purchase(
    { db: app.deps.db, provider: builtinProvider, clock, appUrl: app.url, earnings: DEFAULT_EARNINGS_POLICY },
    { userId: fan.id, email: fan.email, username: fan.username, tierId, idempotencyKey: randomUUID(), kind: 'creator' },
  );
  if (result.kind !== 'subscribed') throw new Error(`expected a subscription, got ${result.kind}`);
  return result.subscriptionId;
}

const subscription = (id: string) => app.deps.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const paymentsOf = async (userId: string) =>
  (await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', userId).where('status', '=', 'succeeded').execute()).length;
const mailsTo = async (email: string) => (await app.outbox()).filter((m) => m.to === email && m.subject.startsWith('Your subscription to'));
const goPrivate = (asCreator: Awaited<ReturnType<typeof clientAs>>, profileVisibility: 'private' | 'public') =>
  asCreator.trpc.settings.savePrivacy.mutate({ profileVisibility, showOnlineStatus: true, allowFriendRequests: true });

describe('a creator who turns private or hidden', () => {
  it('built-in provider: the fan’s subscription ends at its period end, is never charged again, and the fan is mailed once', async () => {
    const { creator, asCreator, tier } = await creatorWithTier();
    const friends = await creatorWithTier('friends');
    const clock = fixedClock(T0);
    const fan = await makeUser(app.deps.db);
    const id = await subscribeAt(clock, fan, tier.id);
    const friendsId = await subscribeAt(clock, fan, friends.tier.id);

    // while the profile is public nothing changes
    clock.set(new Date(T0.getTime() + DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 0 });

    await goPrivate(asCreator, 'private');
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 1, failures: 0 });
    expect(await subscription(id)).toMatchObject({ cancel_at_period_end: true, creator_unavailable_at: clock.now(), status: 'active' });
    const [mail] = await waitFor(async () => {
      const mails = await mailsTo(fan.email);
      return mails.length > 0 && mails;
    });
    expect(mail!.text).toContain('will not renew');
    expect(mail!.text).toContain('you will not be charged again');
    // a second run changes nothing and mails nobody
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 0 });

    // the fan cannot resume paying for a profile nobody may see
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(asFan.trpc.subscriptions.resume.mutate({ id }), 'CONFLICT', BILLING_TEXTS.resumeCreatorUnavailable);

    // at the period end it ends, unpaid; the 'friends' creator's subscriber renews as ever
    clock.set(new Date(T0.getTime() + WEEK));
    const run = await billingMaintenance({ ...app.deps, clock });
    expect(run).toMatchObject({ expired: 1, renewed: 1 });
    expect((await subscription(id)).status).toBe('expired');
    expect((await subscription(friendsId)).current_period_end).toEqual(new Date(T0.getTime() + 2 * WEEK));
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).where('creator_id', '=', creator.id).execute()).toHaveLength(1);
    expect(await mailsTo(fan.email)).toHaveLength(1);
  });

  it('Stripe: the job tells Stripe to stop at the period end, retrying a Stripe error at a later run, then marks it here and mails once', async () => {
    const { creator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const id = await recordSubscription(app.deps.db, {
      subscriberId: fan.id, tierId: tier.id, status: 'active', periodStart: T0, periodEnd: new Date(T0.getTime() + WEEK),
      provider: 'stripe', providerSubscriptionId: 'sub_hidden_1',
    });
    // Hide Account
    await app.deps.db.updateTable('privacy_settings').set({ profile_visibility: 'hidden' }).where('user_id', '=', creator.id).execute();

    // Stripe fails: nothing is marked here, nobody is mailed, and it is tried again later
    const clock = fixedClock(new Date(T0.getTime() + DAY_MS));
    fakeStripe.failNext('POST', '/v1/subscriptions/sub_hidden_1');
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 0, failures: 1 });
    expect(await subscription(id)).toMatchObject({ cancel_at_period_end: false, creator_unavailable_at: null });
    expect(fakeStripe.cancelsAtPeriodEnd('sub_hidden_1')).toBe(false);

    clock.advance(RETRY_AFTER_FAILURE_MS);
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 1, failures: 0 });
    expect(fakeStripe.cancelsAtPeriodEnd('sub_hidden_1')).toBe(true);
    expect(fakeStripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_hidden_1').at(-1)!.params).toMatchObject({
      cancel_at_period_end: 'true',
    });
    expect(await subscription(id)).toMatchObject({ cancel_at_period_end: true });
    await waitFor(async () => (await mailsTo(fan.email)).length === 1);
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 0 });

    // Stripe invoices nothing more; here it ends at its period end
    clock.set(new Date(T0.getTime() + WEEK));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ expired: 1 });
    expect((await subscription(id)).status).toBe('expired');
    expect(await paymentsOf(fan.id)).toBe(0);
    expect(await mailsTo(fan.email)).toHaveLength(1);
  });

  it('the demo: zoe pays iris (private); after a maintenance run it ends at its period end and zoe is told', async () => {
    const now = new Date(T0.getTime() + 30 * DAY_MS);
    const premium = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).where('name', '=', 'Premium').executeTakeFirstOrThrow();
    const people = planPeople(await hashPassword('demo-password-for-test'), premium.id, now, prng(20261120));
    await app.deps.db.transaction().execute((trx) => insertPeople(trx, people));
    const zoe = people.people.get('zoe')!.id;
    const toCreator = (username: string) =>
      app.deps.db
        .selectFrom('subscriptions as s')
        .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
        .innerJoin('profiles as p', 'p.id', 't.creator_id')
        .select(['s.cancel_at_period_end', 's.creator_unavailable_at', 's.status'])
        .where('s.subscriber_id', '=', zoe)
        .where('p.username', '=', username)
        .executeTakeFirstOrThrow();
    expect(await toCreator('iris')).toMatchObject({ status: 'active', cancel_at_period_end: false });

    await billingMaintenance({ ...app.deps, clock: fixedClock(now) });
    expect(await toCreator('iris')).toMatchObject({ status: 'active', cancel_at_period_end: true, creator_unavailable_at: now });
    expect(await toCreator('maya')).toMatchObject({ status: 'active', cancel_at_period_end: false, creator_unavailable_at: null });
    await waitFor(async () => (await mailsTo('zoe@demo.test')).length === 1);
  });
});

describe('a creator an admin suspends', () => {
  it('is never paid again: subscribing is refused, and each fan’s subscription ends at its period end with a mail', async () => {
    const { creator, tier } = await creatorWithTier();
    const clock = fixedClock(T0);
    const fan = await makeUser(app.deps.db);
    const id = await subscribeAt(clock, fan, tier.id);
    clock.set(new Date(T0.getTime() + DAY_MS));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 0 });

    // what suspendReportedSender writes (server/features/messages/reports.service.ts)
    await app.deps.db.updateTable('users').set({ suspended_at: clock.now() }).where('id', '=', creator.id).execute();
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ creatorUnavailable: 1, failures: 0 });
    expect(await subscription(id)).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    await waitFor(async () => (await mailsTo(fan.email)).length === 1);
    const newcomer = await makeUser(app.deps.db);
    await expect(subscribeAt(clock, newcomer, tier.id)).rejects.toThrow();

    clock.set(new Date(T0.getTime() + WEEK));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ expired: 1, renewed: 0 });
    expect(await app.deps.db.selectFrom('payments').select('id').where('user_id', '=', fan.id).where('creator_id', '=', creator.id).execute()).toHaveLength(1);
  });
});
