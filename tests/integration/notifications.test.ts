import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_CAP_PER_HOUR } from '../../common/notifications';
import { generateVapidKeys } from '../../core/push/web-push';
import { builtinProvider } from '../../core/payments/builtin';
import { insertPayment } from '../../domain/billing/billing.queries';
import { carryOutPayout, requestPayout } from '../../domain/earnings/payouts';
import { withinCap } from '../../domain/notifications/caps';
import { notifyPurchase } from '../../domain/notifications/money';
import { findNotificationRows, notificationHref } from '../../domain/notifications/rows';
import { makePost, makeSubscription, makeUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

// Issue 28: each kind written once by its cause, the settings matrix, grouping, caps, pruning on
// 410 and nobody told about what they may not see. Real server, workers, Postgres and Redis.
let app: TestServer;
let pushService: Server;
const pushHits: { path: string; bytes: number }[] = [];
let pushStatus = 201;
/** An address on the server's network the worker must never request (a redirect's Location). */
let inside: Server;
const insideHits: string[] = [];

beforeAll(async () => {
  pushService = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      pushHits.push({ path: req.url ?? '', bytes });
      // a push service that sends the worker elsewhere (issue 46): to an address inside
      if (req.url?.startsWith('/redirect/')) res.writeHead(302, { location: `http://127.0.0.1:${(inside.address() as AddressInfo).port}/latest/meta-data/` }).end();
      else res.writeHead(pushStatus).end();
    });
  });
  inside = createServer((req, res) => {
    insideHits.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('secret');
  });
  await new Promise<void>((r) => pushService.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
  const vapid = generateVapidKeys();
  app = await startTestServer({ env: { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' } });
});
afterAll(async () => {
  await app?.close();
  pushService?.close();
  inside?.close();
});

/** Carries a value out of a transaction rolled back on purpose. */
class Rollback {
  constructor(readonly value: unknown) {}
}

const rowsOf = (userId: string) => app.deps.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('last_at').execute();

async function creatorWithTier() {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '20', paymentInterval: 'monthly' });
  return { creator, asCreator, tier };
}

describe('notifications', () => {
  it('a subscription tells its creator once, whose centre leads to the subscriber; a cancellation too', async () => {
    const { creator, asCreator, tier } = await creatorWithTier();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const key = randomUUID();
    const sub = await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '20.00' });
    // the same request again: no second charge, no second notification
    await asFan.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: key, confirmedAmount: '20.00' });
    const rows = await rowsOf(creator.id);
    expect(rows.map((r) => [r.kind, r.actor_id])).toEqual([['new-subscriber', fan.id]]);
    expect(await rowsOf(fan.id)).toEqual([]);
    expect(await asCreator.trpc.notifications.unreadCount.query()).toEqual({ count: 1 });
    const page = await asCreator.trpc.notifications.list.query({});
    expect(page.items[0]).toMatchObject({ kind: 'new-subscriber', href: `/${fan.username}`, read: false, actor: { username: fan.username } });
    // nobody else reads or marks it
    const stranger = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect((await stranger.trpc.notifications.list.query({})).items).toEqual([]);
    await expect(stranger.trpc.notifications.markRead.mutate({ id: page.items[0]!.id })).rejects.toThrow();

    if (sub.kind !== 'subscribed') throw new Error('not subscribed');
    await asFan.trpc.subscriptions.cancel.mutate({ id: sub.subscriptionId });
    expect((await rowsOf(creator.id)).map((r) => r.kind)).toEqual(['new-subscriber', 'subscription-canceled']);
    await asCreator.trpc.notifications.markAllRead.mutate();
    expect(await asCreator.trpc.notifications.unreadCount.query()).toEqual({ count: 0 });
  });

  it('likes make one row per post and day that counts the likers; comments and replies tell their people', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, text: 'hello' });
    const fans = await Promise.all([1, 2, 3].map(() => makeUser(app.deps.db)));
    for (const f of fans) await (await clientAs(app, f.id)).trpc.posts.like.mutate({ postId: post.id });
    // liking twice is no new like; the creator's own like tells nobody
    await (await clientAs(app, fans[0]!.id)).trpc.posts.like.mutate({ postId: post.id });
    await (await clientAs(app, creator.id)).trpc.posts.like.mutate({ postId: post.id });
    let rows = await rowsOf(creator.id);
    expect(rows.map((r) => [r.kind, r.actor_count, r.actor_id])).toEqual([['like', 3, fans[2]!.id]]);

    const asFan0 = await clientAs(app, fans[0]!.id);
    const { comment } = await asFan0.trpc.comments.add.mutate({ postId: post.id, text: 'nice' });
    await (await clientAs(app, fans[1]!.id)).trpc.comments.add.mutate({ postId: post.id, text: 'agreed', parentId: comment.id });
    rows = await rowsOf(creator.id);
    expect(rows.map((r) => [r.kind, r.actor_count])).toEqual([['like', 3], ['comment', 2]]);
    expect((await rowsOf(fans[0]!.id)).map((r) => [r.kind, r.actor_id])).toEqual([['reply', fans[1]!.id]]);

    // the post deleted: the row stays and says so instead of leading to a 404
    await app.deps.db.deleteFrom('posts').where('id', '=', post.id).execute();
    const page = await (await clientAs(app, creator.id)).trpc.notifications.list.query({ kind: 'like' });
    expect(page.items.map((i) => [i.kind, i.href])).toEqual([['like', null]]);
  });

  it('the settings matrix decides: a kind turned off in the app and for push is not written; the master switch stops push', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, text: 'x' });
    const asCreator = await clientAs(app, creator.id);
    await asCreator.trpc.notifications.savePreference.mutate({ kind: 'like', inApp: false, email: false, push: false });
    const prefs = await asCreator.trpc.notifications.preferences.query();
    expect(prefs.like).toEqual({ inApp: false, email: false, push: false });
    expect(prefs.comment).toEqual({ inApp: true, email: false, push: true });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await asFan.trpc.posts.like.mutate({ postId: post.id });
    expect(await rowsOf(creator.id)).toEqual([]);
    // in-app off, push on: written for the push, kept out of the centre
    await asCreator.trpc.notifications.savePreference.mutate({ kind: 'comment', inApp: false, email: false, push: true });
    await asFan.trpc.comments.add.mutate({ postId: post.id, text: 'hi' });
    expect((await rowsOf(creator.id)).map((r) => [r.kind, r.shown])).toEqual([['comment', false]]);
    expect((await asCreator.trpc.notifications.list.query({})).items).toEqual([]);
    // Push Notifications off and comments out of the app: nothing at all
    await app.deps.db.insertInto('notification_settings').values({ user_id: creator.id, push_notifications: false }).onConflict((oc) => oc.column('user_id').doUpdateSet({ push_notifications: false })).execute();
    await (await clientAs(app, (await makeUser(app.deps.db)).id)).trpc.comments.add.mutate({ postId: post.id, text: 'again' });
    expect((await rowsOf(creator.id)).map((r) => r.actor_count)).toEqual([1]);
  });

  it('messages from one sender share a row while unread; reading the thread reads it; a 410 forgets the browser', async () => {
    const [sender, recipient] = await Promise.all([makeUser(app.deps.db), makeUser(app.deps.db)]);
    const asRecipient = await clientAs(app, recipient.id);
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const endpoint = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/push/${randomUUID()}`;
    await asRecipient.trpc.notifications.subscribePush.mutate({
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    });
    pushStatus = 410;
    const asSender = await clientAs(app, sender.id);
    await asSender.trpc.messages.send.mutate({ username: recipient.username, content: 'secret words', clientId: randomUUID() });
    await asSender.trpc.messages.send.mutate({ username: recipient.username, content: 'more', clientId: randomUUID() });
    const rows = await rowsOf(recipient.id);
    expect(rows.map((r) => [r.kind, r.actor_count, r.read_at])).toEqual([['message', 2, null]]);
    // the push went (after its delay) to the test's push service, which answered 410: the browser is forgotten
    await waitFor(async () => pushHits.some((h) => endpoint.endsWith(h.path)), 20_000, 'the push');
    await waitFor(async () => (await app.deps.db.selectFrom('push_subscriptions').select('id').where('user_id', '=', recipient.id).execute()).length === 0, 10_000, 'pruning');

    const ids = (await app.deps.db.selectFrom('messages').select('id').where('recipient_id', '=', recipient.id).execute()).map((m) => m.id);
    await asRecipient.trpc.messages.markRead.mutate({ ids });
    expect((await rowsOf(recipient.id))[0]!.read_at).not.toBeNull();
    pushStatus = 201;
  });

  it('a new post reaches its creator\'s active subscribers through the fan-out, and nobody else', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const [fan, lapsed, stranger] = await Promise.all([makeUser(app.deps.db), makeUser(app.deps.db), makeUser(app.deps.db)]);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
    await makeSubscription(app.deps.db, { subscriberId: lapsed.id, creatorId: creator.id, periodEnd: new Date(Date.now() - 86_400_000), status: 'expired' });
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, status: 'draft', kind: null, text: 'new' });
    await (await clientAs(app, creator.id)).trpc.profiles.publishDraft.mutate({ postId: draft.id });
    await waitFor(async () => (await rowsOf(fan.id)).length === 1, 15_000, 'the fan told');
    await app.drain('notify-fanout');
    expect((await rowsOf(fan.id)).map((r) => [r.kind, r.subject_id])).toEqual([['new-post', draft.id]]);
    expect(await rowsOf(lapsed.id)).toEqual([]);
    expect(await rowsOf(stranger.id)).toEqual([]);
    expect(await rowsOf(creator.id)).toEqual([]);

    // a private creator's post tells nobody
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const fan2 = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: fan2.id, creatorId: hidden.id });
    const post2 = await makePost(app.deps.db, null, { creatorId: hidden.id, status: 'draft', kind: null, text: 'p' });
    await (await clientAs(app, hidden.id)).trpc.profiles.publishDraft.mutate({ postId: post2.id });
    await app.drain('notify-fanout');
    expect(await rowsOf(fan2.id)).toEqual([]);
  });

  it('a tip and a purchase tell the creator once each (a repeated tip request tells nothing more); an unlocked post\'s row leads to it, and says so once it is gone', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const asCreator = await clientAs(app, creator.id);
    const tip = { creatorUsername: creator.username, amount: '30', confirmedAmount: '30.00', message: 'for the strings', idempotencyKey: randomUUID() };
    await Promise.all([asFan.trpc.tips.send.mutate(tip), asFan.trpc.tips.send.mutate(tip)]);
    expect((await rowsOf(creator.id)).map((r) => [r.kind, r.actor_id, r.subject_type, r.subject_id])).toEqual([['tip', fan.id, 'user', fan.id]]);
    const [tipRow] = (await asCreator.trpc.notifications.list.query({ kind: 'tip' })).items;
    expect(tipRow).toMatchObject({ href: `/${fan.username}`, actor: { username: fan.username } });

    // A pay-per-view unlock (its purpose comes with that feature; the check constraint does not
    // know it yet, so this runs in a transaction that drops the check and is rolled back): the one
    // call every purchase makes, in its payment's transaction
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, isPremium: true });
    const told = await app.deps.db
      .transaction()
      .execute(async (trx) => {
        await sql`alter table payments drop constraint payments_purpose_check`.execute(trx);
        const paymentId = await insertPayment(trx, {
          userId: fan.id, tierId: null, creatorId: creator.id, subscriptionId: null, description: 'Unlock', idempotencyKey: randomUUID(),
          amountCents: 25_00, provider: 'builtin', providerRef: `ref-${randomUUID()}`, status: 'succeeded', createdAt: new Date(), earnings: DEFAULT_EARNINGS_POLICY,
        });
        await sql`update payments set purpose = 'post_unlock' where id = ${paymentId}`.execute(trx);
        await notifyPurchase(trx, { paymentId, subject: { type: 'post', id: post.id } });
        const rows = await findNotificationRows(trx, { userId: creator.id, kind: 'purchase', limit: 5 });
        const hrefs = rows.map(notificationHref);
        await sql`delete from posts where id = ${post.id}`.execute(trx);
        const gone = (await findNotificationRows(trx, { userId: creator.id, kind: 'purchase', limit: 5 })).map(notificationHref);
        throw new Rollback({ rows: rows.map((r) => [r.kind, r.username, r.subject_id]), hrefs, gone });
      })
      .catch((e: unknown) => {
        if (e instanceof Rollback) return e.value;
        throw e;
      });
    expect(told).toEqual({ rows: [['purchase', fan.username, post.id]], hrefs: [`/post/${post.id}`], gone: [null] });
  });

  it('a payout sent and a payout refused each tell their creator once, leading to the Earnings tab', async () => {
    const db = app.deps.db;
    const creator = await makeUser(db, { isCreator: true });
    const fan = await makeUser(db);
    await db.insertInto('payout_accounts').values({ user_id: creator.id, provider: 'builtin', provider_account_id: `test_acct_${randomUUID()}`, status: 'enabled' }).execute();
    const { id: tierId } = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 500_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
    const earn = () =>
      db.transaction().execute((trx) =>
        insertPayment(trx, {
          userId: fan.id, tierId, creatorId: creator.id, subscriptionId: null, description: 'Gold', idempotencyKey: null, systemKey: `c-${randomUUID()}`,
          amountCents: 500_00, provider: 'builtin', providerRef: `r-${randomUUID()}`, status: 'succeeded', createdAt: new Date(Date.now() - 30 * 86_400_000), earnings: DEFAULT_EARNINGS_POLICY,
        }),
      );
    const clock = { now: () => new Date() };
    await earn();
    const first = await requestPayout({ db, clock }, { creatorId: creator.id, trigger: 'request', key: randomUUID(), minimumCents: 100 });
    const paid = () => carryOutPayout({ db, providerFor: () => builtinProvider, clock }, first.payout.id);
    expect(await paid()).toMatchObject({ paidCents: expect.any(Number) });
    // the job again (a retry after a lost answer): settled already, nobody told twice
    expect(await paid()).toEqual({ skipped: 'settled' });
    expect((await rowsOf(creator.id)).map((r) => [r.kind, r.actor_id, r.subject_id])).toEqual([['payout-sent', null, first.payout.id]]);

    await earn();
    const second = await requestPayout({ db, clock }, { creatorId: creator.id, trigger: 'request', key: randomUUID(), minimumCents: 100 });
    const refusing = { ...builtinProvider, transfer: async () => ({ ok: false as const, reason: 'The account was closed' }) };
    expect(await carryOutPayout({ db, providerFor: () => refusing, clock }, second.payout.id)).toMatchObject({ failed: 'The account was closed' });
    expect((await rowsOf(creator.id)).map((r) => r.kind)).toEqual(['payout-sent', 'payout-failed']);
    const page = await (await clientAs(app, creator.id)).trpc.notifications.list.query({});
    expect(page.items.map((i) => [i.kind, i.href])).toEqual([
      ['payout-failed', '/create?tab=earnings'],
      ['payout-sent', '/create?tab=earnings'],
    ]);
    expect(await rowsOf(fan.id)).toEqual([]);
  });

  it('a push endpoint must be https to a public host: an address on the machine\'s network is refused without the tests\' setting', async () => {
    const user = await makeUser(app.deps.db);
    const as = await clientAs(app, user.id);
    const keys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    for (const endpoint of [
      'http://push.example.com/x', 'https://10.0.0.5/x', 'https://169.254.169.254/latest', 'https://redis.internal/x', 'https://[fd00::1]/x', 'https://printer/x',
      // a trailing dot is taken off before the checks; an IPv4 address mapped in IPv6 is an address
      'https://metadata.google.internal./computeMetadata/v1/', 'https://redis.internal./x', 'https://printer./x', 'https://10.0.0.5./x', 'https://[::ffff:169.254.169.254]/latest',
    ]) {
      await expect(as.trpc.notifications.subscribePush.mutate({ endpoint, keys }), endpoint).rejects.toThrow(/not one this server sends to/);
    }
    await as.trpc.notifications.subscribePush.mutate({ endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, keys });
    // the tests' own push service on the loopback, allowed by PUSH_ALLOW_LOCAL_ENDPOINTS only
    await as.trpc.notifications.subscribePush.mutate({ endpoint: `http://127.0.0.1:9/push/${randomUUID()}`, keys });
    expect(await app.deps.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', user.id).execute()).toHaveLength(2);
  });

  it('the worker does not follow a push service\'s redirect: the POST reaches the push service, its Location gets nothing, the browser is kept', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, text: 'redirected' });
    const endpoint = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/redirect/${randomUUID()}`;
    const keys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    await (await clientAs(app, creator.id)).trpc.notifications.subscribePush.mutate({ endpoint, keys });
    await (await clientAs(app, (await makeUser(app.deps.db)).id)).trpc.comments.add.mutate({ postId: post.id, text: 'hello' });
    // the send-push job posted to the push service, which answered 302 to an address inside
    await waitFor(async () => pushHits.some((h) => endpoint.endsWith(h.path)), 20_000, 'the push');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(insideHits).toEqual([]);
    // a 3xx is a failed delivery (retried), not a browser gone
    expect(await app.deps.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', creator.id).execute()).toEqual([{ endpoint }]);
  });

  it('each user gets at most PUSH_CAP_PER_HOUR pushes an hour, counted once per notification', async () => {
    const user = randomUUID();
    const now = new Date();
    const results: boolean[] = [];
    for (let i = 0; i < PUSH_CAP_PER_HOUR + 3; i++) results.push(await withinCap(app.deps.redis, app.deps.config.REDIS_PREFIX, 'push', user, `n${i}`, now));
    expect(results.filter(Boolean)).toHaveLength(PUSH_CAP_PER_HOUR);
    // the same notification again (a second browser, a retry): still allowed
    expect(await withinCap(app.deps.redis, app.deps.config.REDIS_PREFIX, 'push', user, 'n0', now)).toBe(true);
  });
});
