import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makePost, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs } from '../helpers/trpc';

/**
 * Issue 45 item 4: a creator could take back a bought pay-per-view post by making it premium (or
 * taking its price away), with no refund: the access rule read unlocks only while the post had a
 * price. Bought stays bought whatever the creator later changes (premium, price, unlock mode), in
 * the access rule (domain/access/access.ts) and its SQL twin alike: the media route, the post page
 * and the profile's list (viewerUnlockedColumn) all still open it; nobody else gains anything.
 */
const app = useFileServer({ emptyUsers: true });

describe('a bought post stays bought', () => {
  it('after its creator makes it premium without a price, changes the price and the mode, the buyer still sees it; others do not', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const buyer = await makeUser(app.deps.db);
    const stranger = await makeUser(app.deps.db);
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', title: 'Golden hour', unlock: { priceCents: 7500, mode: 'everyone' } });
    const asBuyer = await clientAs(app, buyer.id);
    const asStranger = await clientAs(app, stranger.id);
    const asCreator = await clientAs(app, creator.id);
    await asBuyer.trpc.postUnlocks.unlock.mutate({ postId: post.id, idempotencyKey: randomUUID(), confirmedAmount: '75.00' });

    /** What each of the three ways of reading the post says the buyer (or the stranger) may see. */
    const sees = async (as: typeof asBuyer) => ({
      media: (await as.fetch(`/media/${post.id}/original`)).status,
      page: (await as.trpc.posts.byId.query({ id: post.id })).viewer.canViewMedia,
      list: (await as.trpc.profiles.posts.query({ username: creator.username })).items.find((p) => p.id === post.id)?.viewer.canViewMedia,
    });
    const open = { media: 200, page: true, list: true };
    const closed = { media: 403, page: false, list: false };
    expect(await sees(asBuyer)).toEqual(open);
    expect(await sees(asStranger)).toEqual(closed);

    const edit = (over: Record<string, unknown>) => asCreator.trpc.posts.edit.mutate({ postId: post.id, title: 'Golden hour', text: '', hashtags: '', isPremium: false, unlock: null, ...over });
    // premium, no price any more: for subscribers only, but bought is bought
    await edit({ isPremium: true });
    expect(await sees(asBuyer)).toEqual(open);
    expect(await sees(asStranger)).toEqual(closed);
    // a price again, ten times higher, and free to subscribers
    await edit({ isPremium: true, unlock: { price: '750', mode: 'non_subscribers' } });
    expect(await sees(asBuyer)).toEqual(open);
    expect(await sees(asStranger)).toEqual(closed);
  });
});
