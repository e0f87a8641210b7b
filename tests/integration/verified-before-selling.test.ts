import { readyAttachment } from '../helpers/attachments';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELLING_TEXTS } from '../../common/selling';
import { makePost, makeUser, type MadeUser } from '../helpers/factories';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { useFileServer } from '../helpers/file-server';
import { sendSigned, stripeEvent, STRIPE_TEST_ENV } from '../helpers/stripe-events';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { tusCreate } from '../helpers/tus';

/**
 * Issue 47 item 1, "Verified before selling": the server refuses every kind of sale of a creator
 * whose identity is not verified, with words that say what is missing and where to do it, and
 * takes the same requests once the creator is verified: the built-in provider's test verification,
 * or on Stripe, Stripe's check of the Connect account (`account.updated`).
 */
const app = useFileServer();


const TIER = { name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 0 } as const;
const PRICED_UPLOAD = { filename: 'set.jpg', isPaidContent: 'false', isNsfw: 'false', status: 'published', unlockPrice: '50', unlockMode: 'everyone' };

/** Every kind of sale, once; each answers what it did or the refusal's code and words. */
async function trySales(server: TestServer, creator: MadeUser, as: TestClient, fan: MadeUser, asFan: TestClient) {
  const settle = (call: Promise<unknown>) => call.then(() => 'ok', (e: { data?: { code?: string }; message: string }) => `${e.data?.code}: ${e.message}`);
  const post = await makePost(server.deps.db, null, { creatorId: creator.id, status: 'published' });
  const upload = await tusCreate(as, 1000, PRICED_UPLOAD);
  return {
    tier: await settle(as.trpc.tiers.create.mutate({ ...TIER, name: `Gold ${randomUUID().slice(0, 6)}` })),
    postPrice: await settle(as.trpc.posts.edit.mutate({ postId: post.id, title: 'Set', text: '', hashtags: '', isPremium: false, unlock: { price: '25', mode: 'everyone' } })),
    upload: upload.status === 201 ? 'ok' : `${upload.status}: ${((await upload.json()) as { error: { description: string } }).error.description}`,
    messagePrice: await settle(
      as.trpc.messages.send.mutate({ username: fan.username, content: 'A set', attachmentId: await readyAttachment(server, creator.id), price: '30', clientId: randomUUID() }),
    ),
    massMessagePrice: await settle(
      as.trpc.massMessages.create.mutate({ audience: 'active', content: 'To all', attachmentId: await readyAttachment(server, creator.id), price: '30', clientId: randomUUID() }),
    ),
    tip: await settle(asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount: '20', confirmedAmount: '20.00', message: null, idempotencyKey: randomUUID() })),
  };
}

const REFUSED = {
  tier: `FORBIDDEN: ${SELLING_TEXTS.verifyFirst('tier')}`,
  postPrice: `FORBIDDEN: ${SELLING_TEXTS.verifyFirst('postPrice')}`,
  upload: `403: ${SELLING_TEXTS.verifyFirst('postPrice')}`,
  messagePrice: `FORBIDDEN: ${SELLING_TEXTS.verifyFirst('messagePrice')}`,
  massMessagePrice: `FORBIDDEN: ${SELLING_TEXTS.verifyFirst('massMessagePrice')}`,
};
const ACCEPTED = { tier: 'ok', postPrice: 'ok', upload: 'ok', messagePrice: 'ok', massMessagePrice: 'ok', tip: 'ok' };

describe('built-in provider', () => {
  it('refuses every sale of an unverified creator, saying what is missing; the test verification opens them all', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true, identityVerified: false });
    await app.deps.db.updateTable('profiles').set({ display_name: 'Nia Newbie' }).where('id', '=', creator.id).execute();
    const fan = await makeUser(app.deps.db);
    const [as, asFan] = [await clientAs(app, creator.id), await clientAs(app, fan.id)];

    expect((await as.trpc.settings.verification.query()).identity).toEqual({ verified: false, via: null, provider: 'builtin', payoutStatus: null });
    expect(await trySales(app, creator, as, fan, asFan)).toEqual({ ...REFUSED, tip: `FORBIDDEN: ${SELLING_TEXTS.tipsClosed('Nia Newbie')}` });
    // nothing was put up for sale
    expect(await as.trpc.tiers.listMine.query()).toEqual([]);
    expect(await app.deps.db.selectFrom('messages').select('id').where('sender_id', '=', creator.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('mass_messages').select('id').where('creator_id', '=', creator.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('payments').select('id').where('creator_id', '=', creator.id).execute()).toEqual([]);

    const verified = await as.trpc.settings.verifyIdentityForTesting.mutate();
    expect(verified.message).toBe(SELLING_TEXTS.testVerified);
    expect(verified.status).toMatchObject({ isIdentityVerified: true, identity: { verified: true, via: 'test', provider: 'builtin' } });
    // a second press keeps the first verification
    const first = await app.deps.db.selectFrom('verification_status').select('identity_test_verified_at').where('user_id', '=', creator.id).executeTakeFirstOrThrow();
    await as.trpc.settings.verifyIdentityForTesting.mutate();
    expect(await app.deps.db.selectFrom('verification_status').select('identity_test_verified_at').where('user_id', '=', creator.id).executeTakeFirstOrThrow()).toEqual(first);

    expect(await trySales(app, creator, as, fan, asFan)).toEqual(ACCEPTED);
    expect(await as.trpc.creators.firstSteps.query()).toMatchObject({ verify: true, tier: true });
  });

  it('a post priced before keeps its price through an edit; only a new price is a new sale', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true, identityVerified: false });
    const as = await clientAs(app, creator.id);
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, status: 'published', unlock: { priceCents: 2500, mode: 'everyone' } });
    const edit = (price: string) => as.trpc.posts.edit.mutate({ postId: post.id, title: 'Typo fixed', text: '', hashtags: '', isPremium: false, unlock: { price, mode: 'non_subscribers' } });
    expect(await edit('25')).toMatchObject({ title: 'Typo fixed' });
    await expectTrpcError(edit('30'), 'FORBIDDEN', SELLING_TEXTS.verifyFirst('postPrice'));
    // taking the price away sells nothing
    expect(await as.trpc.posts.edit.mutate({ postId: post.id, title: 'Free now', text: '', hashtags: '', isPremium: false, unlock: null })).toMatchObject({ title: 'Free now' });
  });
});

describe('Stripe', () => {
  let stripe: FakeStripe;
  let server: TestServer;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startTestServer({ env: { ...STRIPE_TEST_ENV, STRIPE_API_URL: stripe.url }, workerQueues: [] });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it('the state comes from the Connect account: no test verification, refused until account.updated says Stripe verified the person', async () => {
    const creator = await makeUser(server.deps.db, { isCreator: true, identityVerified: false });
    const as = await clientAs(server, creator.id);
    await expectTrpcError(as.trpc.settings.verifyIdentityForTesting.mutate(), 'FORBIDDEN', SELLING_TEXTS.testOnlyBuiltin);
    // a test verification made while the platform ran without Stripe does not count on Stripe
    await server.deps.db.updateTable('verification_status').set({ identity_test_verified_at: new Date() }).where('user_id', '=', creator.id).execute();
    expect((await as.trpc.settings.verification.query()).identity).toEqual({ verified: false, via: null, provider: 'stripe', payoutStatus: null });
    await expectTrpcError(as.trpc.tiers.create.mutate(TIER), 'FORBIDDEN', SELLING_TEXTS.verifyFirst('tier'));

    const account = (await as.trpc.earnings.setUpPayouts.mutate()).onboardingUrl!.split('/').at(-1)!;
    expect((await as.trpc.settings.verification.query()).identity).toMatchObject({ verified: false, payoutStatus: 'details_needed' });
    // details in, Stripe still checking: not yet
    const pending = stripeEvent(`evt_v_${randomUUID()}`, 'account.updated', { id: account, object: 'account', payouts_enabled: false, details_submitted: true, requirements: { currently_due: [] } });
    expect((await sendSigned(server.url, pending)).outcome).toBe('applied');
    expect((await as.trpc.settings.verification.query()).identity).toMatchObject({ verified: false, payoutStatus: 'pending' });
    await expectTrpcError(as.trpc.tiers.create.mutate(TIER), 'FORBIDDEN', SELLING_TEXTS.verifyFirst('tier'));

    const verified = stripeEvent(`evt_v_${randomUUID()}`, 'account.updated', {
      id: account, object: 'account', payouts_enabled: true, details_submitted: true, requirements: { currently_due: [] }, individual: { verification: { status: 'verified' } },
    });
    expect((await sendSigned(server.url, verified)).outcome).toBe('applied');
    expect((await as.trpc.settings.verification.query()).identity).toEqual({ verified: true, via: 'provider', provider: 'stripe', payoutStatus: 'enabled' });
    expect(await as.trpc.tiers.create.mutate(TIER)).toMatchObject({ name: 'Gold', price: '50.00' });
  });
});
