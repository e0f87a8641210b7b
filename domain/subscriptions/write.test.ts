import { describe, expect, it } from 'vitest';
import { makeUser } from '../../tests/helpers/factories';
import { useTestDb } from '../../tests/helpers/test-db';
import { recordSubscription, recordSubscriptions } from './write';

const t = useTestDb();

const DAY = 24 * 60 * 60_000;
const tierOf = async (creatorId: string, name = 'VIP Club') =>
  (
    await t.db
      .insertInto('subscription_tiers')
      .values({ creator_id: creatorId, name, price_cents: 50_00, payment_interval: 'monthly' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const period = (days: number) => ({ periodStart: new Date(Date.now() - DAY), periodEnd: new Date(Date.now() + days * DAY) });
const subscribersOf = (creatorId: string) =>
  t.db.selectFrom('subscribers').select(['subscriber_id', 'tier_id', 'status']).where('creator_id', '=', creatorId).orderBy('subscriber_id').execute();

describe('recordSubscriptions: the one writer of subscriptions and subscribers', () => {
  it("writes the subscription and the spec's subscriber record; a later one for the pair refreshes the record", async () => {
    const creator = await makeUser(t.db, { isCreator: true });
    const fan = await makeUser(t.db);
    const [basic, gold] = [await tierOf(creator.id), await tierOf(creator.id, 'Gold')];

    const first = await recordSubscription(t.db, { subscriberId: fan.id, tierId: basic, status: 'active', ...period(30) });
    expect(await t.db.selectFrom('subscriptions').select(['id', 'tier_id', 'status']).where('subscriber_id', '=', fan.id).execute()).toEqual([
      { id: first, tier_id: basic, status: 'active' },
    ]);
    expect(await subscribersOf(creator.id)).toEqual([{ subscriber_id: fan.id, tier_id: basic, status: 'active' }]);

    await recordSubscription(t.db, { subscriberId: fan.id, tierId: gold, status: 'canceled', ...period(30) });
    expect(await subscribersOf(creator.id)).toEqual([{ subscriber_id: fan.id, tier_id: gold, status: 'canceled' }]);
  });

  it('writes no subscriber record for the platform Premium tier, which belongs to no creator', async () => {
    const fan = await makeUser(t.db);
    const premium = await t.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).executeTakeFirstOrThrow();
    const id = await recordSubscription(t.db, { subscriberId: fan.id, tierId: premium.id, status: 'active', ...period(30) });
    expect(await t.db.selectFrom('subscriptions').select('id').where('id', '=', id).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('subscribers').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);
  });

  it('writes both tables or neither: a batch whose subscriber record is refused leaves no subscription behind', async () => {
    const creator = await makeUser(t.db, { isCreator: true });
    const fan = await makeUser(t.db);
    const tier = await tierOf(creator.id);
    // the second is the creator subscribing to themselves: subscriptions accepts it, subscribers does not
    const batch = [
      { subscriberId: fan.id, tierId: tier, status: 'active' as const, ...period(30) },
      { subscriberId: creator.id, tierId: tier, status: 'active' as const, ...period(30) },
    ];
    await expect(recordSubscriptions(t.db, batch)).rejects.toThrow(/subscribers_not_self_check/);
    expect(await t.db.selectFrom('subscriptions').select('id').where('tier_id', '=', tier).execute()).toEqual([]);
    expect(await subscribersOf(creator.id)).toEqual([]);

    // inside the caller's transaction (the demo seed), the caller's rollback undoes both as well
    await expect(
      t.db.transaction().execute(async (trx) => {
        await recordSubscriptions(trx, batch.slice(0, 1));
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await t.db.selectFrom('subscriptions').select('id').where('tier_id', '=', tier).execute()).toEqual([]);
    expect(await subscribersOf(creator.id)).toEqual([]);
  });
});
