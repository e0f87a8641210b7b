import { describe, expect, it } from 'vitest';
import type { ProfileVisibility } from '../../../common/enums';
import { makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';

// every test starts from no users at all
const app = useFileServer({ emptyUsers: true });

let n = 0;
async function creator(opts: {
  verified?: boolean;
  premium?: boolean;
  visibility?: ProfileVisibility;
  /** minutes ago */
  age: number;
  isCreator?: boolean;
}) {
  n += 1;
  const user = await makeUser(app.deps.db, {
    username: `creator${n}`,
    isCreator: opts.isCreator ?? true,
    isVerified: opts.verified ?? false,
    isPremium: opts.premium ?? false,
    visibility: opts.visibility ?? 'public',
  });
  await app.deps.db
    .updateTable('profiles')
    .set({ created_at: new Date(Date.now() - opts.age * 60_000) } as never)
    .where('id', '=', user.id)
    .execute();
  return user;
}

/** `count` fans subscribed to one tier of the creator, each with a subscription in this status (period not over). */
async function subscribe(creatorId: string, count: number, status: 'active' | 'canceled' | 'expired' = 'active') {
  const db = app.deps.db;
  let tierId: string | undefined;
  for (let i = 0; i < count; i++) {
    const fan = await makeUser(db);
    ({ tierId } = await makeSubscription(db, { subscriberId: fan.id, creatorId, status, tierId }));
  }
}

const featured = () => app.client().trpc.creators.featured.query();

describe('creators.featured', () => {
  it('is empty when there are no creators', async () => {
    await makeUser(app.deps.db); // a fan, not a creator
    expect(await featured()).toEqual([]);
  });

  it('orders verified first, then premium, then longest-standing (a new creator does not displace an established one); maps the card fields', async () => {
    const plainOld = await creator({ age: 50 });
    const plainNew = await creator({ age: 1 });
    const premium = await creator({ premium: true, age: 40 });
    const verified = await creator({ verified: true, age: 30 });
    const both = await creator({ verified: true, premium: true, age: 60 });
    const verifiedNew = await creator({ verified: true, age: 2 });

    const cards = await featured();
    expect(cards.map((c) => c.id)).toEqual([both.id, verified.id, verifiedNew.id, premium.id, plainOld.id, plainNew.id]);
    expect(cards[0]).toEqual({
      id: both.id,
      username: both.username,
      displayName: `C${both.username.slice(1)} Tester`, // as the factory writes it
      avatarUrl: null,
      categories: [],
      isVerified: true,
      isPremium: true,
      subscriberCount: 0,
    });
  });

  it('leaves out private, hidden and friends-only profiles and non-creators', async () => {
    const shown = await creator({ age: 5 });
    // friends-only profiles are for their subscribers: never listed publicly
    await creator({ visibility: 'friends', age: 6 });
    await creator({ visibility: 'private', verified: true, age: 1 });
    await creator({ visibility: 'hidden', verified: true, age: 2 });
    await creator({ isCreator: false, verified: true, age: 3 });
    // a creator without a privacy_settings row counts as public
    const noRow = await creator({ age: 7 });
    await app.deps.db.deleteFrom('privacy_settings').where('user_id', '=', noRow.id).execute();

    expect((await featured()).map((c) => c.id)).toEqual([noRow.id, shown.id]);
  });

  it('shows at most 6', async () => {
    const made = [];
    for (let i = 0; i < 8; i++) made.push(await creator({ age: i + 1 }));
    const cards = await featured();
    expect(cards).toHaveLength(6);
    // the six who have been here longest: the two newest are left out
    expect(cards.map((c) => c.id)).toEqual(made.slice(2).reverse().map((c) => c.id));
  });

  it('counts only active subscribers, per creator', async () => {
    const a = await creator({ verified: true, age: 1 });
    const b = await creator({ age: 2 });
    const c = await creator({ age: 3 });
    await subscribe(a.id, 3);
    await subscribe(a.id, 2, 'canceled');
    await subscribe(b.id, 1);
    await subscribe(b.id, 4, 'expired');

    const counts = Object.fromEntries((await featured()).map((card) => [card.id, card.subscriberCount]));
    expect(counts).toEqual({ [a.id]: 3, [b.id]: 1, [c.id]: 0 });
    expect(typeof counts[a.id]).toBe('number');
  });

  it('is public: no session needed, and no mutation of state', async () => {
    await creator({ age: 1 });
    const client = app.client();
    client.setOrigin(null);
    expect(await client.trpc.creators.featured.query()).toHaveLength(1);
  });
});
