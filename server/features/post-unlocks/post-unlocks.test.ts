import { paymentShares } from '../../../tests/helpers/ledger';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { POST_UNLOCK_TEXTS as T } from '../../../common/post-unlock-texts';
import { makePost, makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { jobIn } from '../../../tests/helpers/jobs';
import { socketPool } from '../../../tests/helpers/sockets';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

const VARIANTS = ['original', 'web', 'thumb'] as const;
const unlockPayments = (userId: string) =>
  app.deps.db.selectFrom('payments').select(['id', 'purpose', 'amount_cents', 'creator_id', 'kind']).where('user_id', '=', userId).where('purpose', '=', 'post_unlock').execute();

async function ppvPost(mode: 'everyone' | 'non_subscribers' = 'everyone') {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', title: 'Golden hour set', unlock: { priceCents: 7500, mode } });
  return { creator, post };
}

describe('postUnlocks.unlock', () => {
  it('20 parallel presses and a retry make one charge; the media opens for the buyer only, live in their tabs, in every list', async () => {
    const { creator, post } = await ppvPost();
    const fan = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const asOther = await clientAs(app, other.id);
    const asCreator = await clientAs(app, creator.id);

    // before: a locked card with the price, the preview only, 403 on every full variant
    const before = await asFan.trpc.posts.byId.query({ id: post.id });
    expect(before.unlock).toEqual({ price: '75.00', mode: 'everyone', unlocked: false });
    expect(before.viewer.canViewMedia).toBe(false);
    expect(before.media?.url).toBeNull();
    expect(before.media?.previewUrl).toBe(`/media/${post.id}/preview`);
    for (const v of VARIANTS) expect((await asFan.fetch(`/media/${post.id}/${v}`)).status).toBe(403);
    expect((await asFan.fetch(`/media/${post.id}/preview`)).status).toBe(200);

    const tabs = [await sockets.open(app, fan), await sockets.open(app, fan)];
    const heard: unknown[] = [];
    for (const tab of tabs) tab.on('entitlement:changed', (e) => heard.push(e));

    const input = { postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '75' };
    const results = await Promise.all(Array.from({ length: 20 }, () => asFan.trpc.postUnlocks.unlock.mutate(input)));
    expect(new Set(results.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ kind: 'paid', postId: post.id, amount: '75.00', testPayment: true })]));
    expect(await asFan.trpc.postUnlocks.unlock.mutate(input)).toEqual(results[0]);
    expect(await unlockPayments(fan.id)).toEqual([{ id: expect.any(String), purpose: 'post_unlock', amount_cents: '7500', creator_id: creator.id, kind: 'charge' }]);
    // a second confirmation with a new key: already unlocked, still one charge
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate({ ...input, idempotencyKey: randomUUID() }), 'CONFLICT', T.alreadyUnlocked);
    expect(await unlockPayments(fan.id)).toHaveLength(1);

    await expect.poll(() => heard.length).toBe(2);
    expect(heard[0]).toEqual({ subject: { kind: 'post', postId: post.id, creatorId: creator.id }, active: true });

    for (const v of VARIANTS) expect((await asFan.fetch(`/media/${post.id}/${v}`)).status).toBe(200);
    for (const v of VARIANTS) expect((await asOther.fetch(`/media/${post.id}/${v}`)).status).toBe(403);
    for (const v of VARIANTS) expect((await app.client().fetch(`/media/${post.id}/${v}`)).status).toBe(403);

    const after = await asFan.trpc.posts.byId.query({ id: post.id });
    expect(after.unlock?.unlocked).toBe(true);
    expect(after.media?.url).toBe(`/media/${post.id}/web`);
    // the lists read the same rule (the creator's profile: the buyer's card open, another fan's locked)
    const profileForFan = await asFan.trpc.profiles.posts.query({ username: creator.username });
    const profileForOther = await asOther.trpc.profiles.posts.query({ username: creator.username });
    expect(profileForFan.items.find((p) => p.id === post.id)?.viewer.canViewMedia).toBe(true);
    expect(profileForOther.items.find((p) => p.id === post.id)).toMatchObject({ viewer: { canViewMedia: false }, unlock: { unlocked: false } });
    expect(profileForOther.items.find((p) => p.id === post.id)?.media?.url).toBeNull();

    // the creator sees the unlock and its revenue; nobody else may ask
    expect(await asCreator.trpc.postUnlocks.stats.query({ postId: post.id })).toEqual({ postId: post.id, unlocks: 1, revenue: '75.00' });
    await expectTrpcError(asFan.trpc.postUnlocks.stats.query({ postId: post.id }), 'NOT_FOUND');
    // the ledger split it like any charge
    const [charge] = await unlockPayments(fan.id);
    const split = await paymentShares(app.deps.db, charge!.id);
    expect(split.creator).toBeGreaterThan(0);
    expect(split.cash).toBe(split.platform + split.creator!);
  });

  it("subscribers pay too in mode 'everyone', and see it free in mode 'non_subscribers'", async () => {
    const a = await ppvPost('everyone');
    const b = await ppvPost('non_subscribers');
    const fan = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: a.creator.id });
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: b.creator.id });
    const asFan = await clientAs(app, fan.id);
    expect((await asFan.fetch(`/media/${a.post.id}/original`)).status).toBe(403);
    expect((await asFan.fetch(`/media/${b.post.id}/original`)).status).toBe(200);
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate({ postId: b.post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' }), 'CONFLICT', T.alreadyUnlocked);
    await asFan.trpc.postUnlocks.unlock.mutate({ postId: a.post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' });
    expect((await asFan.fetch(`/media/${a.post.id}/original`)).status).toBe(200);
  });

  it("refuses one's own post, a price not confirmed, a post not for sale, an unknown or hidden post, and visitors", async () => {
    const { creator, post } = await ppvPost();
    const free = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image' });
    const privateCreator = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const hidden = await makePost(app.deps.db, null, { creatorId: privateCreator.id, kind: null, unlock: { priceCents: 1000, mode: 'everyone' } });
    const draft = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null, status: 'draft', unlock: { priceCents: 1000, mode: 'everyone' } });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const asCreator = await clientAs(app, creator.id);
    const unlock = (postId: string, confirmedAmount = '75.00') => ({ postId, idempotencyKey: randomUUID(), confirmedAmount });
    await expectTrpcError(asCreator.trpc.postUnlocks.unlock.mutate(unlock(post.id)), 'FORBIDDEN', T.ownPost);
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate(unlock(post.id, '10.00')), 'CONFLICT', T.priceChanged);
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate(unlock(free.id)), 'CONFLICT', T.notForSale);
    for (const id of [hidden.id, draft.id, randomUUID()]) await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate(unlock(id, '10.00')), 'NOT_FOUND');
    await expectTrpcError(app.client().trpc.postUnlocks.unlock.mutate(unlock(post.id)), 'UNAUTHORIZED');
    // a key spent on another post is not reused for this one
    const key = randomUUID();
    const second = await ppvPost();
    await asFan.trpc.postUnlocks.unlock.mutate({ postId: second.post.id, idempotencyKey: key, confirmedAmount: '75.00' });
    await expectTrpcError(asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: key, confirmedAmount: '75.00' }), 'CONFLICT');
    expect(await unlockPayments(fan.id)).toHaveLength(1);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);
  });

  it('a full refund of the unlock revokes it (media 403, the fan hears it); buying again opens it again', async () => {
    const { creator, post } = await ppvPost();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' });
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    const [payment] = await unlockPayments(fan.id);
    const tab = await sockets.open(app, fan);
    const heard: unknown[] = [];
    tab.on('entitlement:changed', (e) => heard.push(e));

    const part = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: payment!.id, amount: '25', idempotencyKey: part });
    await jobIn(app.deps.queues.maintenance, `provider-refund-admin-refund-${part}`, 'completed');
    // a partial refund keeps the unlock
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    const rest = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: payment!.id, amount: '50', idempotencyKey: rest });
    await jobIn(app.deps.queues.maintenance, `provider-refund-admin-refund-${rest}`, 'completed');
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);
    expect((await asFan.trpc.posts.byId.query({ id: post.id })).unlock?.unlocked).toBe(false);
    await expect.poll(() => heard).toEqual([{ subject: { kind: 'post', postId: post.id, creatorId: creator.id }, active: false }]);
    const asCreator = await clientAs(app, creator.id);
    expect(await asCreator.trpc.postUnlocks.stats.query({ postId: post.id })).toEqual({ postId: post.id, unlocks: 0, revenue: '0.00' });

    await asFan.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' });
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    expect((await asCreator.trpc.postUnlocks.stats.query({ postId: post.id })).unlocks).toBe(1);
  });
});
