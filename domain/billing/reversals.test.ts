import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { makeSubscription, makeUser } from '../../tests/helpers/factories';
import { useTestDb } from '../../tests/helpers/test-db';
import { insertPayment } from './billing.queries';
import { recordReversal, refundableCents } from './reversals';
import { DEFAULT_EARNINGS_POLICY } from '../earnings/policy';

const t = useTestDb();

async function charge(amountCents = 99_00) {
  const creator = await makeUser(t.db, { isCreator: true });
  const fan = await makeUser(t.db);
  const { subscriptionId, tierId } = await makeSubscription(t.db, { subscriberId: fan.id, creatorId: creator.id });
  const paymentId = await t.db.transaction().execute((trx) =>
    insertPayment(trx, {
    userId: fan.id, tierId, creatorId: creator.id, subscriptionId, description: 'Creator — VIP Club', idempotencyKey: randomUUID(),
    amountCents, provider: 'builtin', providerRef: `ref-${randomUUID()}`, status: 'succeeded', createdAt: new Date(), earnings: DEFAULT_EARNINGS_POLICY,
  }),
  );
  return { paymentId, creatorId: creator.id };
}
const net = async (creatorId: string) =>
  Number((await sql<{ net: string }>`select coalesce(sum(amount_cents), 0) as net from payments where creator_id = ${creatorId} and status = 'succeeded'`.execute(t.db)).rows[0]!.net);

describe('reversals in the ledger', () => {
  it('a refund is a row of its own with the negative amount, written once per key; the charge keeps its amount', async () => {
    const { paymentId, creatorId } = await charge(99_00);
    const refund = { paymentId, kind: 'refund' as const, amountCents: 40_00, providerRef: 're_1', systemKey: `refund-${randomUUID()}`, now: new Date() };
    const first = await t.db.transaction().execute((trx) => recordReversal(trx, refund));
    const again = await t.db.transaction().execute((trx) => recordReversal(trx, refund));
    expect(first).toMatchObject({ created: true, charge: { id: paymentId, amountCents: 99_00 } });
    expect(again).toMatchObject({ created: false, id: first!.id });
    expect(await net(creatorId)).toBe(59_00);
    expect(await refundableCents(t.db, paymentId)).toBe(59_00);
    const rows = await t.db.selectFrom('payments').select(['kind', 'amount_cents', 'reverses_payment_id']).where('creator_id', '=', creatorId).orderBy('kind').execute();
    expect(rows).toEqual([
      { kind: 'charge', amount_cents: '9900', reverses_payment_id: null },
      { kind: 'refund', amount_cents: '-4000', reverses_payment_id: paymentId },
    ]);
  });

  it('a dispute takes the money back and a dispute won returns it; neither counts as refunded', async () => {
    const { paymentId, creatorId } = await charge(50_00);
    const key = randomUUID();
    await t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'dispute', amountCents: 50_00, providerRef: 'dp_1', systemKey: `dispute-${key}`, now: new Date() }));
    expect(await net(creatorId)).toBe(0);
    await t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'dispute_won', amountCents: 50_00, providerRef: 'dp_1', systemKey: `dispute-won-${key}`, now: new Date() }));
    expect(await net(creatorId)).toBe(50_00);
    expect(await refundableCents(t.db, paymentId)).toBe(50_00);
  });

  it('a reversal with the wrong sign is refused, and a client key in the system keys', async () => {
    const { paymentId } = await charge();
    await expect(
      t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'refund', amountCents: -500, providerRef: null, systemKey: `refund-${randomUUID()}`, now: new Date() })),
    ).rejects.toThrow(/positive whole cents/);
    await expect(
      t.db.insertInto('payments').values({ user_id: null, tier_id: null, amount_cents: 500, provider: 'builtin', provider_ref: null, status: 'succeeded', kind: 'refund', reverses_payment_id: paymentId }).execute(),
    ).rejects.toThrow(/payments_amount_check/);
    await expect(
      t.db.updateTable('payments').set({ system_key: 'x' }).where('id', '=', paymentId).execute(),
    ).rejects.toThrow(/payments_one_key_check/);
  });
});
