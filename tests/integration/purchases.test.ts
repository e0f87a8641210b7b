import { randomUUID } from 'node:crypto';
import { readyAttachment } from '../helpers/attachments';
import { describe, expect, it } from 'vitest';
import type { PurchaseDto } from '../../common/purchase-schemas';
import { makePost, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

/**
 * Issue 47 item 8: the fan's "Purchased" collection (`purchases.mine`): every pay-per-view post
 * and paid message the fan bought, newest first, filtered by kind, keyset-paged without gaps or
 * repeats; only the caller's own (an input naming another user is refused, a visitor is asked to
 * sign in); a bought post's card says it is bought.
 */
const app = useFileServer({ emptyUsers: true });


describe('purchases.mine', () => {
  it("lists the fan's own bought posts and messages, newest first, by kind, paged; nobody else's", async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const other = await makeUser(app.deps.db);
    const [asCreator, asFan, asOther] = await Promise.all([clientAs(app, creator.id), clientAs(app, fan.id), clientAs(app, other.id)]);

    const posts = [];
    for (const [i, title] of ['First set', 'Second set', 'Third set'].entries()) {
      posts.push(await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, kind: 'image', title, unlock: { priceCents: 1000 * (i + 2), mode: 'everyone' } }));
    }
    const unlockPost = (as: typeof asFan, id: string, amount: string) => as.trpc.postUnlocks.unlock.mutate({ postId: id, idempotencyKey: randomUUID(), confirmedAmount: amount });
    await unlockPost(asFan, posts[0]!.id, '20.00');
    const messages = [];
    for (const [i, text] of ['A note for you', 'Another note'].entries()) {
      const attachmentId = await readyAttachment(app, creator.id);
      messages.push(await asCreator.trpc.messages.send.mutate({ username: fan.username, content: text, attachmentId, price: `${15 + i}`, clientId: `p-${i}` }));
    }
    await asFan.trpc.messages.unlock.mutate({ messageId: messages[0]!.id, confirmedAmount: '15.00', idempotencyKey: randomUUID() });
    await unlockPost(asFan, posts[1]!.id, '30.00');
    await asFan.trpc.messages.unlock.mutate({ messageId: messages[1]!.id, confirmedAmount: '16.00', idempotencyKey: randomUUID() });
    await unlockPost(asFan, posts[2]!.id, '40.00');
    // someone else's purchase, never in the fan's list
    await unlockPost(asOther, posts[0]!.id, '20.00');

    const label = (p: PurchaseDto) => (p.post ? `post:${p.post.name}:${p.amount}` : `message:${p.message!.text}:${p.amount}`);
    const everything = ['post:Third set:40.00', 'message:Another note:16.00', 'post:Second set:30.00', 'message:A note for you:15.00', 'post:First set:20.00'];

    // paged two at a time: every purchase once, newest first, and the last page says there is no more
    const seen: PurchaseDto[] = [];
    let cursor: { createdAt: string; id: string } | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof asFan.trpc.purchases.mine.query>> = await asFan.trpc.purchases.mine.query({ filter: 'all', limit: 2, cursor });
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map(label)).toEqual(everything);
    expect(seen[0]).toMatchObject({ kind: 'post', post: { id: posts[2]!.id }, creator: { username: creator.username } });
    expect(seen[1]).toMatchObject({ kind: 'message', message: { id: messages[1]!.id } });

    // what React Query's infinite list adds to each page's input is accepted
    expect((await asFan.trpc.purchases.mine.query({ filter: 'all', limit: 1, direction: 'forward' })).items.map(label)).toEqual(everything.slice(0, 1));
    // the filters
    expect((await asFan.trpc.purchases.mine.query({ filter: 'posts', limit: 20 })).items.map(label)).toEqual(everything.filter((l) => l.startsWith('post:')));
    expect((await asFan.trpc.purchases.mine.query({ filter: 'messages', limit: 20 })).items.map(label)).toEqual(everything.filter((l) => l.startsWith('message:')));
    // a filtered page two at a time
    const firstPosts = await asFan.trpc.purchases.mine.query({ filter: 'posts', limit: 2 });
    expect(firstPosts.items.map(label)).toEqual(['post:Third set:40.00', 'post:Second set:30.00']);
    expect((await asFan.trpc.purchases.mine.query({ filter: 'posts', limit: 2, cursor: firstPosts.nextCursor })).items.map(label)).toEqual(['post:First set:20.00']);

    // only the caller's own: the other buyer sees theirs alone; the creator bought nothing
    expect((await asOther.trpc.purchases.mine.query({})).items.map(label)).toEqual(['post:First set:20.00']);
    expect((await asCreator.trpc.purchases.mine.query({})).items).toEqual([]);
    // another user's id in the input is refused, not obeyed
    const naming = { filter: 'all', userId: fan.id } as unknown as { filter: 'all' };
    await expectTrpcError(asOther.trpc.purchases.mine.query(naming), 'BAD_REQUEST');
    // a visitor
    const visitor = await fetch(`${app.url}/trpc/purchases.mine?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`);
    expect(visitor.status).toBe(401);

    // the bought post's card says so for the buyer, not for someone who did not buy it
    expect((await asFan.trpc.posts.byId.query({ id: posts[1]!.id })).unlock).toMatchObject({ unlocked: true });
    expect((await asOther.trpc.posts.byId.query({ id: posts[1]!.id })).unlock).toMatchObject({ unlocked: false });
  });
});
