import { describe, expect, it } from 'vitest';
import { fanOutBatch } from '../../domain/notifications/fan-out';
import { newPostGroupKey } from '../../domain/notifications/notify';
import { makePost, makeSubscription, makeUser } from '../helpers/factories';
import { useTestDb } from '../helpers/test-db';

/**
 * A new post's fan-out, batch after batch (issue 50 item 5: each batch reads its creator's tiers in
 * subscriber order and stops at the batch's size): every active subscriber is told once, on
 * whichever of the creator's tiers, and a lapsed one is not.
 */
describe("a new post's fan-out in batches", () => {
  const t = useTestDb();

  it('tells every active subscriber of every tier once, two at a time, and nobody lapsed', async () => {
    const db = t.db;
    const creator = await makeUser(db, { isCreator: true });
    const gold = (await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 90_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow()).id;
    const fans = await Promise.all(Array.from({ length: 7 }, () => makeUser(db)));
    // fans 0-3 on VIP Club, 2-5 on Gold (2 and 3 on both), 6 lapsed yesterday
    for (const fan of fans.slice(0, 4)) await makeSubscription(db, { subscriberId: fan.id, creatorId: creator.id });
    for (const fan of fans.slice(2, 6)) await makeSubscription(db, { subscriberId: fan.id, creatorId: creator.id, tierId: gold });
    await makeSubscription(db, { subscriberId: fans[6]!.id, creatorId: creator.id, periodEnd: new Date(Date.now() - 24 * 60 * 60_000) });
    const post = await makePost(db, null, { creatorId: creator.id });

    const sizes: number[] = [];
    let after: string | null = null;
    do {
      const batch = await fanOutBatch(db, post.id, after, new Date(), { size: 2, push: false });
      if (!batch) throw new Error('the post was not fanned out');
      sizes.push(batch.shown.length);
      after = batch.next;
    } while (after !== null);

    const told = await db.selectFrom('notifications').select('user_id').where('group_key', '=', newPostGroupKey(post.id)).execute();
    expect(told.map((r) => r.user_id).sort()).toEqual(fans.slice(0, 6).map((f) => f.id).sort());
    expect(sizes).toEqual([2, 2, 2, 0]);
  });
});
