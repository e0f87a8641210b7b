import { creatorAccountLines, sumCredit } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CARD_TEXTS } from '../../common/card-texts';
import type { TipReceivedEvent } from '../../common/socket-events';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { useStripeTestServer } from '../helpers/fake-stripe';
import { paid } from '../helpers/paid';
import { socketPool } from '../helpers/sockets';
import { sendSigned, stripeEvent } from '../helpers/stripe-events';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { storedRand } from '../helpers/money';

/**
 * Paying without leaving the page with Stripe (issue 27 item 6): tips and unlocks through a
 * payment-mode Checkout without a card, or the card on file (off-session, 3-D Secure, declines),
 * written once by whichever of the webhook or the card's answer comes first. Stripe is the fake on
 * a local port (tests/helpers/fake-stripe.ts); webhooks are signed as Stripe signs them.
 */
const { app, fakeStripe } = useStripeTestServer();
const sockets = socketPool();
afterEach(sockets.closeAll);

const oneOffs = (userId: string) =>
  app.deps.db.selectFrom('payments').select(['id', 'purpose', 'amount_cents', 'provider', 'provider_ref', 'kind']).where('user_id', '=', userId).where('purpose', '!=', 'subscription').execute();
const pendingOf = (userId: string) => app.deps.db.selectFrom('pending_charges').select(['id', 'purpose', 'payment_id']).where('user_id', '=', userId).execute();
const lastSession = () => [...fakeStripe.sessions.values()].at(-1)!;
const sessionIdOf = (url: string) => url.split('/').at(-1)!;

async function creatorWithPost() {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', unlock: { priceCents: 7500, mode: 'everyone' } });
  return { creator, post };
}

/** The fan adds a card on Stripe's page (setup-mode Checkout) and Stripe's webhook stores it. */
async function saveCard(fan: MadeUser, behaviour: 'succeeds' | 'requires_action' | 'declines', last4 = '4242') {
  const asFan = await clientAs(app, fan.id);
  const { url } = await asFan.trpc.cards.add.mutate();
  const session = fakeStripe.finishSetup(sessionIdOf(url), { brand: 'visa', last4, behaviour });
  expect((await sendSigned(app.url, stripeEvent(`evt_setup_${randomUUID()}`, 'checkout.session.completed', session))).outcome).toBe('applied');
  return asFan;
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A priced message with a ready file from the creator to the fan. */
async function pricedMessage(creator: MadeUser, fan: MadeUser) {
  const attachmentId = randomUUID();
  const key = `messages/${attachmentId}/run/file.png`;
  await app.deps.storage.put(key, PNG, 'image/png');
  await app.deps.db
    .insertInto('message_attachments')
    .values({ id: attachmentId, owner_id: creator.id, kind: 'image', status: 'ready', original_filename: 'set.png', byte_size: PNG.length, storage_key: key, content_type: 'image/png' })
    .execute();
  const asCreator = await clientAs(app, creator.id);
  const sent = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'For you', attachmentId, price: '30', clientId: randomUUID() });
  return { sent, mediaUrl: `/media/messages/${attachmentId}` };
}

describe('one-off purchases with Stripe', () => {
  it("a pay-per-view message: another fan's attempt is refused before Stripe; by card at once (double press, one PaymentIntent), or through Checkout and its webhook, live", async () => {
    const { creator } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const stranger = await makeUser(app.deps.db);
    const asStranger = await clientAs(app, stranger.id);
    const byCard = await pricedMessage(creator, fan);
    const byCheckout = await pricedMessage(creator, fan);
    const sessionsBefore = fakeStripe.sessions.size;
    await expectTrpcError(asStranger.trpc.messages.unlock.mutate({ messageId: byCard.sent.id, confirmedAmount: '30.00', idempotencyKey: randomUUID() }), 'NOT_FOUND');
    expect(fakeStripe.sessions.size).toBe(sessionsBefore);
    expect(await pendingOf(stranger.id)).toEqual([]);

    // without a card: Checkout, then the webhook opens it; the fan's tab hears it
    const asFan = await clientAs(app, fan.id);
    const fanTab = await sockets.open(app, fan);
    const heard: unknown[] = [];
    fanTab.on('entitlement:changed', (e: unknown) => heard.push(e));
    const redirect = await asFan.trpc.messages.unlock.mutate({ messageId: byCheckout.sent.id, confirmedAmount: '30.00', idempotencyKey: randomUUID() });
    expect(redirect.kind).toBe('redirect');
    expect(lastSession().params.success_url).toContain(`/messages/${creator.username}?checkout=paid`);
    expect((await asFan.fetch(byCheckout.mediaUrl)).status).toBe(403);
    const session = fakeStripe.payCheckout(lastSession().id);
    expect((await sendSigned(app.url, stripeEvent(`evt_msg_${session.id as string}`, 'checkout.session.completed', session))).outcome).toBe('applied');
    expect((await asFan.fetch(byCheckout.mediaUrl)).status).toBe(200);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ subject: { kind: 'message', messageId: byCheckout.sent.id }, active: true });

    // with a card: at once, one PaymentIntent however often Pay is pressed
    await saveCard(fan, 'succeeds');
    const intentsBefore = fakeStripe.intents.size;
    const input = { messageId: byCard.sent.id, confirmedAmount: '30.00', idempotencyKey: randomUUID() };
    const results = await Promise.all([1, 2, 3].map(() => asFan.trpc.messages.unlock.mutate(input)));
    expect(new Set(results.map((r) => paid(r).paymentId)).size).toBe(1);
    expect(fakeStripe.intents.size - intentsBefore).toBe(1);
    expect((await asFan.fetch(byCard.mediaUrl)).status).toBe(200);
    expect((await asStranger.fetch(byCard.mediaUrl)).status).toBe(403);
    const rows = await app.deps.db.selectFrom('payments').select(['message_id', 'amount_cents', 'provider']).where('user_id', '=', fan.id).where('purpose', '=', 'message_unlock').execute();
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.message_id).sort()).toEqual([byCard.sent.id, byCheckout.sent.id].sort());
  });

  it('without a card: a tip and an unlock leave for a payment-mode Checkout; double presses are one session; the webhooks (both kinds, replayed) write each once, live', async () => {
    const { creator, post } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const asOther = await clientAs(app, other.id);
    const creatorTab = await sockets.open(app, creator);
    const heard: TipReceivedEvent[] = [];
    creatorTab.on('tip:received', (e: TipReceivedEvent) => heard.push(e));

    const tip = { creatorUsername: creator.username, amount: '50', confirmedAmount: '50.00', message: 'For the set', idempotencyKey: randomUUID() };
    const presses = await Promise.all([1, 2, 3].map(() => asFan.trpc.tips.send.mutate(tip)));
    const urls = new Set(presses.map((r) => (r.kind === 'redirect' ? r.url : r.kind)));
    expect(urls.size).toBe(1);
    const tipSession = fakeStripe.sessions.get(sessionIdOf([...urls][0]!))!;
    expect(tipSession.mode).toBe('payment');
    expect(tipSession.params['line_items[0][price_data][unit_amount]']).toBe('5000');
    expect(tipSession.params.success_url).toContain(`/${creator.username}?checkout=paid`);
    // nothing in the ledger until Stripe says the money is in
    expect(await oneOffs(fan.id)).toEqual([]);
    expect(await pendingOf(fan.id)).toHaveLength(1);

    const completed = fakeStripe.payCheckout(tipSession.id);
    const intent = fakeStripe.intents.get(tipSession.paymentIntent!)!;
    const events = [
      stripeEvent('evt_tip_cs', 'checkout.session.completed', completed),
      stripeEvent('evt_tip_pi', 'payment_intent.succeeded', fakeStripe.passAuthentication(intent.id)),
    ];
    const outcomes = await Promise.all([...events, ...events].map((e) => sendSigned(app.url, e)));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.filter((o) => o.outcome === 'applied')).toHaveLength(1);
    const rows = await oneOffs(fan.id);
    expect(rows).toEqual([expect.objectContaining({ purpose: 'tip', amount_cents: '5000', provider: 'stripe', provider_ref: intent.id, kind: 'charge' })]);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ tipId: rows[0]!.id, fanId: fan.id, amount: '50.00', message: 'For the set' });
    // the press again after the webhook: the tip it wrote, no new session
    const sessionsBefore = fakeStripe.sessions.size;
    expect(paid(await asFan.trpc.tips.send.mutate(tip)).tipId).toBe(rows[0]!.id);
    expect(fakeStripe.sessions.size).toBe(sessionsBefore);

    // an unlock: the media opens for this fan only once the webhook wrote it
    const fanTab = await sockets.open(app, fan);
    const entitlements: unknown[] = [];
    fanTab.on('entitlement:changed', (e: unknown) => entitlements.push(e));
    const unlock = { postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() };
    const [first, second] = await Promise.all([asFan.trpc.postUnlocks.unlock.mutate(unlock), asFan.trpc.postUnlocks.unlock.mutate(unlock)]);
    expect(first).toEqual(second);
    expect(first.kind).toBe('redirect');
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);
    const unlockSession = lastSession();
    expect(unlockSession.params.success_url).toContain(`/post/${post.id}?checkout=paid`);
    const paidSession = fakeStripe.payCheckout(unlockSession.id);
    expect((await sendSigned(app.url, stripeEvent('evt_unlock_cs', 'checkout.session.completed', paidSession))).outcome).toBe('applied');
    expect((await sendSigned(app.url, stripeEvent('evt_unlock_cs', 'checkout.session.completed', paidSession))).outcome).toBe('duplicate');
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    expect((await asOther.fetch(`/media/${post.id}/original`)).status).toBe(403);
    await expect.poll(() => entitlements.length).toBe(1);
    expect(entitlements[0]).toMatchObject({ subject: { kind: 'post', postId: post.id }, active: true });
    expect((await oneOffs(fan.id)).map((r) => r.purpose).sort()).toEqual(['post_unlock', 'tip']);
    // the fan's history says it was paid with Stripe
    expect(await asFan.trpc.payments.history.query()).toEqual(expect.arrayContaining([expect.objectContaining({ amount: '75.00', provider: 'stripe', label: 'paid' })]));

    // the other fan's key is theirs: the same key from them is a purchase of their own, unpaid
    const theirs = await asOther.trpc.postUnlocks.unlock.mutate({ ...unlock });
    expect(theirs.kind).toBe('redirect');
    expect(await oneOffs(other.id)).toEqual([]);
  });

  it('a saved card: stored as brand and last four only, charged off the page at once (one PaymentIntent under double presses); removed after asking, another fan cannot touch it', async () => {
    const { creator } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    const asOther = await clientAs(app, other.id);
    expect(await (await clientAs(app, fan.id)).trpc.cards.mine.query()).toEqual({ provider: 'stripe', card: null, testCards: [] });
    const asFan = await saveCard(fan, 'succeeds', '1881');
    expect(await asFan.trpc.cards.mine.query()).toEqual({ provider: 'stripe', card: { brand: 'visa', last4: '1881' }, testCards: [] });
    const stored = await app.deps.db.selectFrom('payment_cards').selectAll().where('user_id', '=', fan.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ provider: 'stripe', brand: 'visa', last4: '1881' });
    expect(stored.customer_id).toMatch(/^cus_fake_/);
    expect(stored.payment_method_id).toMatch(/^pm_fake_/);
    expect(await asOther.trpc.cards.mine.query()).toEqual({ provider: 'stripe', card: null, testCards: [] });

    const tip = { creatorUsername: creator.username, amount: '20', confirmedAmount: '20.00', message: null, idempotencyKey: randomUUID() };
    const intentsBefore = fakeStripe.intents.size;
    const requestsBefore = fakeStripe.requests.length;
    const results = await Promise.all([1, 2, 3, 4].map(() => asFan.trpc.tips.send.mutate(tip)));
    expect(new Set(results.map((r) => paid(r).tipId)).size).toBe(1);
    expect(results[0]).toMatchObject({ kind: 'paid', amount: '20.00', testPayment: false });
    expect(fakeStripe.intents.size - intentsBefore).toBe(1);
    const intent = [...fakeStripe.intents.values()].at(-1)!;
    expect(intent).toMatchObject({ amount: 2000, offSession: true, status: 'succeeded', paymentMethod: stored.payment_method_id });
    // a press that finds the tip paid answers without asking Stripe: those that did ask used one key
    const creates = fakeStripe.requests.slice(requestsBefore).filter((r) => r.path === '/v1/payment_intents');
    expect(creates.length).toBeGreaterThanOrEqual(1);
    expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
    // Stripe's own event for it afterwards (and again): nothing more
    const succeeded = stripeEvent('evt_card_pi', 'payment_intent.succeeded', fakeStripe.passAuthentication(intent.id));
    expect((await sendSigned(app.url, succeeded)).outcome).toBe('ignored');
    expect((await sendSigned(app.url, succeeded)).outcome).toBe('duplicate');
    expect(await oneOffs(fan.id)).toEqual([expect.objectContaining({ purpose: 'tip', amount_cents: '2000', provider_ref: intent.id })]);

    // another fan removes "a card": theirs, which they do not have; the fan's stays
    await expectTrpcError(asOther.trpc.cards.remove.mutate(), 'NOT_FOUND', CARD_TEXTS.notFound);
    expect(await asFan.trpc.cards.mine.query()).toMatchObject({ card: { last4: '1881' } });
    expect(await asFan.trpc.cards.remove.mutate()).toEqual({ removed: true });
    expect(fakeStripe.detached).toContain(stored.payment_method_id);
    expect(await asFan.trpc.cards.mine.query()).toEqual({ provider: 'stripe', card: null, testCards: [] });
    await expectTrpcError(asFan.trpc.cards.remove.mutate(), 'NOT_FOUND', CARD_TEXTS.notFound);
    // without it, the next tip goes to Checkout again
    const next = await asFan.trpc.tips.send.mutate({ ...tip, idempotencyKey: randomUUID() });
    expect(next.kind).toBe('redirect');
  });

  it('3-D Secure: the fan is sent to the bank, nothing is written until payment_intent.succeeded, which writes once', async () => {
    const { creator, post } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const asFan = await saveCard(fan, 'requires_action');
    const unlock = { postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() };
    const [a, b] = await Promise.all([asFan.trpc.postUnlocks.unlock.mutate(unlock), asFan.trpc.postUnlocks.unlock.mutate(unlock)]);
    expect(a).toEqual(b);
    if (a.kind !== 'redirect') throw new Error(`expected the bank's page, got ${a.kind}`);
    expect(a.url).toMatch(/^https:\/\/hooks\.stripe\.test\/3ds\/pi_fake_/);
    const intentId = a.url.split('/').at(-1)!;
    const intent = fakeStripe.intents.get(intentId)!;
    expect(intent).toMatchObject({ offSession: false, status: 'requires_action', amount: 7500 });
    expect(fakeStripe.requests.find((r) => r.path === '/v1/payment_intents' && r.params.return_url)?.params.return_url).toContain(`/post/${post.id}?checkout=paid`);
    expect(await oneOffs(fan.id)).toEqual([]);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);

    const succeeded = fakeStripe.passAuthentication(intentId);
    const outcomes = await Promise.all([1, 2, 3].map(() => sendSigned(app.url, stripeEvent('evt_3ds_ok', 'payment_intent.succeeded', succeeded))));
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(await oneOffs(fan.id)).toEqual([expect.objectContaining({ purpose: 'post_unlock', amount_cents: '7500', provider_ref: intentId })]);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    // the creator's ledger took its split of it like any charge
    expect(sumCredit(await creatorAccountLines(app.deps.db, creator.id))).toBe(6000);
  });

  it('a declined card: a clear error, nothing written (no payment, no pending charge, no unlock)', async () => {
    const { post } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const asFan = await saveCard(fan, 'declines');
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() }), 'BAD_REQUEST', CARD_TEXTS.declined);
    expect(await oneOffs(fan.id)).toEqual([]);
    expect(await pendingOf(fan.id)).toEqual([]);
    expect(await app.deps.db.selectFrom('post_unlocks').select('id').where('fan_id', '=', fan.id).execute()).toEqual([]);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);
  });
});

describe('the same item bought twice through Checkout', () => {
  it('two tabs pay two Checkouts for one post: the first unlocks it, the second is recorded and paid back in full at Stripe, once', async () => {
    const { post } = await creatorWithPost();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    // each tab confirms with its own key before either page is paid
    const first = await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() });
    const firstSession = lastSession();
    const second = await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, confirmedAmount: '75.00', idempotencyKey: randomUUID() });
    const secondSession = lastSession();
    expect([first.kind, second.kind]).toEqual(['redirect', 'redirect']);
    expect(secondSession.id).not.toBe(firstSession.id);

    const paidFirst = fakeStripe.payCheckout(firstSession.id);
    const paidSecond = fakeStripe.payCheckout(secondSession.id);
    expect((await sendSigned(app.url, stripeEvent('evt_twice_1', 'checkout.session.completed', paidFirst))).outcome).toBe('applied');
    expect((await sendSigned(app.url, stripeEvent('evt_twice_2', 'checkout.session.completed', paidSecond))).outcome).toBe('applied');
    expect((await sendSigned(app.url, stripeEvent('evt_twice_2', 'checkout.session.completed', paidSecond))).outcome).toBe('duplicate');

    // the second intent is refunded in full, once; the first is untouched and the post stays open
    await expect.poll(() => fakeStripe.refundsOf(secondSession.paymentIntent!).map((r) => r.amount), { timeout: 15_000 }).toEqual([7500]);
    expect(fakeStripe.refundsOf(firstSession.paymentIntent!)).toEqual([]);
    const ledger = () =>
      app.deps.db.selectFrom('payments').select(['id', 'kind', 'amount_cents', 'reverses_payment_id']).where('user_id', '=', fan.id).orderBy('created_at').orderBy('kind').execute();
    await expect.poll(async () => (await ledger()).map((r) => `${r.kind} ${storedRand(r.amount_cents)}`), { timeout: 15_000 }).toEqual(['charge 75.00', 'charge 75.00', 'refund -75.00']);
    const [charge1, charge2, refund] = await ledger();
    // the unlock stays on the charge that was kept, and the refund takes back the other one
    const unlock = await app.deps.db.selectFrom('post_unlocks').select(['payment_id', 'revoked_at']).where('fan_id', '=', fan.id).executeTakeFirstOrThrow();
    expect(unlock.revoked_at).toBeNull();
    expect([charge1!.id, charge2!.id]).toContain(refund!.reverses_payment_id);
    expect(refund!.reverses_payment_id).not.toBe(unlock.payment_id);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
  });
});
