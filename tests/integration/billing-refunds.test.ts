import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { jobIn } from '../helpers/jobs';
import { socketPool } from '../helpers/sockets';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';
import { type TestServer, useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

/**
 * Refunds and disputes (issue 22 §4, docs/payments.md): Stripe's charge.refunded and
 * charge.dispute.* events, signed, against a fake Stripe API; an admin's refund through the
 * `provider-refund` job, with Stripe and with the built-in provider.
 */
const { app, fakeStripe } = useStripeTestServer();
const sockets = socketPool();
afterEach(() => sockets.closeAll());

const makeAdmin = async (server: TestServer) => {
  const admin = await makeUser(server.deps.db);
  await server.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
  return admin;
};
const refundJobId = (key: string) => `provider-refund-admin-refund-${key}`;

/** A fan subscribed to a creator's R50 tier through a signed Checkout (invoice `in_<tag>`), and what they can see. */
async function subscribed(server: TestServer, tag: string) {
  const creator = await makeUser(server.deps.db, { isCreator: true });
  const fan = await makeUser(server.deps.db);
  const asCreator = await clientAs(server, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 0 });
  const premiumPost = await makePost(server.deps.db, server.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
  const asFan = await clientAs(server, fan.id);
  const checkout = stripeEvent(`evt_${tag}_checkout`, 'checkout.session.completed', {
    id: `cs_${tag}`, object: 'checkout.session', subscription: `sub_${tag}`, invoice: `in_${tag}`, amount_total: 5000, payment_status: 'paid',
    metadata: { userId: fan.id, tierId: tier.id, idempotencyKey: `key-${tag}-0123456789abcdef` },
  });
  expect((await sendSigned(server.url, checkout)).outcome).toBe('applied');
  const intent = fakeStripe.intentOf(`in_${tag}`);
  const charge = (amountRefunded: number) =>
    ({ id: `ch_${tag}`, object: 'charge', payment_intent: intent, amount: 5000, amount_refunded: amountRefunded, refunded: amountRefunded >= 5000 });
  const dispute = (id: string, status: string) => ({ id, object: 'dispute', charge: `ch_${tag}`, payment_intent: intent, amount: 5000, status });
  return {
    fan, asFan, asCreator, intent, charge, dispute,
    media: async () => (await asFan.fetch(`/media/${premiumPost.id}/original`)).status,
    statuses: async () => (await asFan.trpc.subscriptions.mine.query()).map((s) => s.status),
    history: async () => (await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.label]),
    paymentId: async () => (await asFan.trpc.payments.history.query()).find((p) => p.kind === 'charge')!.id,
  };
}

describe('Stripe refunds and disputes', () => {
  it('a full refund ends access at once (media 403, the fan hears it), once however often Stripe redelivers', async () => {
    const s = await subscribed(app, 'full');
    expect(await s.media()).toBe(200);
    const socket = await sockets.open(app, s.fan as MadeUser);
    const heard = new Promise((resolve) => socket.once('entitlement:changed', resolve));

    fakeStripe.refundInDashboard(s.intent, 5000);
    const refunded = stripeEvent('evt_full_refunded', 'charge.refunded', s.charge(5000));
    expect((await sendSigned(app.url, refunded)).outcome).toBe('applied');
    expect(await heard).toMatchObject({ active: false });
    expect(await s.media()).toBe(403);
    expect(await s.statuses()).toEqual(['ended']);
    expect(await s.history()).toEqual([['-50.00', 'refund'], ['50.00', 'refunded']]);

    expect((await sendSigned(app.url, refunded)).outcome).toBe('duplicate');
    // the same refund reported again under another event id (Stripe's charge.refund.updated-style resend): no second row
    expect((await sendSigned(app.url, stripeEvent('evt_full_refunded_again', 'charge.refunded', s.charge(5000)))).outcome).toBe('applied');
    expect(await s.history()).toEqual([['-50.00', 'refund'], ['50.00', 'refunded']]);
    expect((await s.asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('0.00');
  });

  it('a partial refund keeps access and adds a negative row; the rest refunded later ends it', async () => {
    const s = await subscribed(app, 'part');
    fakeStripe.refundInDashboard(s.intent, 2000);
    expect((await sendSigned(app.url, stripeEvent('evt_part_1', 'charge.refunded', s.charge(2000)))).outcome).toBe('applied');
    expect(await s.media()).toBe(200);
    expect(await s.statuses()).toEqual(['active']);
    expect(await s.history()).toEqual([['-20.00', 'refund'], ['50.00', 'partly-refunded']]);
    expect((await s.asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('24.00');

    fakeStripe.refundInDashboard(s.intent, 3000);
    await sendSigned(app.url, stripeEvent('evt_part_2', 'charge.refunded', s.charge(5000)));
    expect(await s.media()).toBe(403);
    expect((await s.history()).map(([, label]) => label).sort()).toEqual(['refund', 'refund', 'refunded']);
  });

  it('an open dispute ends access, a dispute won restores it, a dispute lost leaves it ended', async () => {
    const s = await subscribed(app, 'disp');
    expect((await sendSigned(app.url, stripeEvent('evt_disp_1', 'charge.dispute.created', s.dispute('dp_disp_1', 'needs_response')))).outcome).toBe('applied');
    expect(await s.media()).toBe(403);
    expect(await s.history()).toEqual([['-50.00', 'chargeback'], ['50.00', 'disputed']]);
    expect((await s.asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('0.00');

    expect((await sendSigned(app.url, stripeEvent('evt_disp_2', 'charge.dispute.closed', s.dispute('dp_disp_1', 'won')))).outcome).toBe('applied');
    expect(await s.media()).toBe(200);
    expect(await s.statuses()).toEqual(['active']);
    expect((await s.history()).map(([, label]) => label).sort()).toEqual(['chargeback', 'dispute-won', 'paid']);
    expect((await s.asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('40.00');

    await sendSigned(app.url, stripeEvent('evt_disp_3', 'charge.dispute.created', s.dispute('dp_disp_2', 'needs_response')));
    expect(await s.media()).toBe(403);
    expect((await sendSigned(app.url, stripeEvent('evt_disp_4', 'charge.dispute.closed', s.dispute('dp_disp_2', 'lost')))).outcome).toBe('applied');
    expect(await s.media()).toBe(403);
    expect(await s.statuses()).toEqual(['ended']);
  });

  it('an admin refunds part of a payment through the job: Stripe is asked once with our key, the webhook adds nothing', async () => {
    const s = await subscribed(app, 'adm');
    const asAdmin = await clientAs(app, (await makeAdmin(app)).id);
    const [found] = await asAdmin.trpc.payments.adminSearch.query({ query: s.fan.username });
    expect(found).toMatchObject({ amount: '50.00', refundable: '50.00', label: 'paid', providerRef: 'in_adm' });
    expect(await asAdmin.trpc.payments.adminSearch.query({ query: 'in_adm' })).toEqual([found]);

    await expectTrpcError(asAdmin.trpc.payments.adminRefund.mutate({ paymentId: found!.id, amount: '50.01', idempotencyKey: randomUUID() }), 'CONFLICT', 'You can refund at most R50.00 of this payment');
    const key = randomUUID();
    const seen = fakeStripe.requests.length;
    expect(await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: found!.id, amount: '20', idempotencyKey: key })).toEqual({ paymentId: found!.id, amount: '20.00' });
    // a double press is the same refund
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: found!.id, amount: '20', idempotencyKey: key });
    await jobIn(app.deps.queues.maintenance, refundJobId(key), 'completed');

    const asked = fakeStripe.requests.slice(seen).filter((r) => r.path === '/v1/refunds');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', idempotencyKey: `admin-refund-${key}`, params: { payment_intent: s.intent, amount: '2000', 'metadata[reversal_key]': `admin-refund-${key}` } });
    expect(await s.history()).toEqual([['-20.00', 'refund'], ['50.00', 'partly-refunded']]);
    expect(await s.media()).toBe(200);

    // Stripe reports the refund it made: the row is there already (the key in its metadata)
    await sendSigned(app.url, stripeEvent('evt_adm_refunded', 'charge.refunded', s.charge(2000)));
    expect(await s.history()).toEqual([['-20.00', 'refund'], ['50.00', 'partly-refunded']]);
    const [after] = await asAdmin.trpc.payments.adminSearch.query({ query: s.fan.email });
    expect(after).toMatchObject({ refunded: '20.00', pendingRefund: '0.00', refundable: '30.00', label: 'partly-refunded' });
  });

  it('a refund Stripe fails is retried by the job; until then it is pending and counts against what is left', async () => {
    const s = await subscribed(app, 'retry');
    const asAdmin = await clientAs(app, (await makeAdmin(app)).id);
    const paymentId = await s.paymentId();
    fakeStripe.failNext('POST', '/v1/refunds');
    const key = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId, amount: '50', idempotencyKey: key });
    const waiting = await jobIn(app.deps.queues.maintenance, refundJobId(key), 'delayed');
    expect(waiting.attemptsMade).toBe(1);
    expect(await s.history()).toEqual([['50.00', 'paid']]);
    expect((await asAdmin.trpc.payments.adminSearch.query({ query: s.fan.username }))[0]).toMatchObject({ pendingRefund: '50.00', refundable: '0.00' });
    await expectTrpcError(asAdmin.trpc.payments.adminRefund.mutate({ paymentId, amount: '1', idempotencyKey: randomUUID() }), 'CONFLICT', 'This payment has been refunded in full');

    await waiting.promote();
    await jobIn(app.deps.queues.maintenance, refundJobId(key), 'completed');
    expect(await s.history()).toEqual([['-50.00', 'refund'], ['50.00', 'refunded']]);
    expect(await s.media()).toBe(403);
  });

  it('refunds and payment searches are for admins only', async () => {
    const s = await subscribed(app, 'nonadmin');
    const paymentId = await s.paymentId();
    await expectTrpcError(s.asFan.trpc.payments.adminRefund.mutate({ paymentId, amount: '50', idempotencyKey: randomUUID() }), 'FORBIDDEN');
    await expectTrpcError(s.asCreator.trpc.payments.adminSearch.query({ query: s.fan.username }), 'FORBIDDEN');
    await expectTrpcError(app.client().trpc.payments.adminRefund.mutate({ paymentId, amount: '50', idempotencyKey: randomUUID() }), 'UNAUTHORIZED');
    expect(await s.history()).toEqual([['50.00', 'paid']]);
    expect(await app.deps.db.selectFrom('refund_requests').select('id').where('payment_id', '=', paymentId).execute()).toEqual([]);
  });
});

describe('built-in provider refunds', () => {
  const builtin = useTestServer();

  it('an admin refund is recorded by the job without calling anyone; in full it ends access', async () => {
    const creator = await makeUser(builtin.deps.db, { isCreator: true });
    const fan = await makeUser(builtin.deps.db);
    const asCreator = await clientAs(builtin, creator.id);
    const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '40', paymentInterval: 'monthly', discountPercentage: 0 });
    const premiumPost = await makePost(builtin.deps.db, builtin.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
    const asFan = await clientAs(builtin, fan.id);
    await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(200);
    const asAdmin = await clientAs(builtin, (await makeAdmin(builtin)).id);
    const [payment] = await asAdmin.trpc.payments.adminSearch.query({ query: creator.username });
    const seen = fakeStripe.requests.length;

    const key = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: payment!.id, amount: '15.50', idempotencyKey: key });
    await jobIn(builtin.deps.queues.maintenance, refundJobId(key), 'completed');
    expect((await asFan.trpc.payments.history.query()).map((p) => [p.amount, p.label])).toEqual([['-15.50', 'refund'], ['40.00', 'partly-refunded']]);
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(200);
    expect((await asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('19.60');

    const rest = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: payment!.id, amount: '24.50', idempotencyKey: rest });
    await jobIn(builtin.deps.queues.maintenance, refundJobId(rest), 'completed');
    expect((await asFan.fetch(`/media/${premiumPost.id}/original`)).status).toBe(403);
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => s.status)).toEqual(['ended']);
    expect((await asCreator.trpc.creatorStats.earnings.query()).thisMonth).toBe('0.00');
    expect(fakeStripe.requests.length).toBe(seen);
  });
});
