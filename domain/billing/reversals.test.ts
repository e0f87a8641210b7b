import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { makeSubscription, makeUser } from '../../tests/helpers/factories';
import { useTestDb } from '../../tests/helpers/test-db';
import { insertPayment } from './billing.queries';
import { recordReversal, refundableAmount } from './reversals';
import { DEFAULT_EARNINGS_POLICY } from '../earnings/policy';

const t = useTestDb();

async function charge(amount = '99.00') {
  const creator = await makeUser(t.db, { isCreator: true });
  const fan = await makeUser(t.db);
  const { subscriptionId, tierId } = await makeSubscription(t.db, { subscriberId: fan.id, creatorId: creator.id });
  const paymentId = await t.db.transaction().execute((trx) =>
    insertPayment(trx, {
    userId: fan.id, tierId, creatorId: creator.id, subscriptionId, description: 'Creator — VIP Club', idempotencyKey: randomUUID(),
    amount, provider: 'builtin', providerRef: `ref-${randomUUID()}`, status: 'succeeded', createdAt: new Date(), earnings: DEFAULT_EARNINGS_POLICY,
  }),
  );
  return { paymentId, creatorId: creator.id };
}
const net = async (creatorId: string) =>
  (await sql<{ net: string }>`select coalesce(sum(amount), 0)::numeric(10,2)::text as net from payments where creator_id = ${creatorId} and status = 'succeeded'`.execute(t.db)).rows[0]!.net;

describe('reversals in the ledger', () => {
  it('a refund is a row of its own with the negative amount, written once per key; the charge keeps its amount', async () => {
    const { paymentId, creatorId } = await charge('99.00');
    const refund = { paymentId, kind: 'refund' as const, amount: '40.00', providerRef: 're_1', systemKey: `refund-${randomUUID()}`, now: new Date() };
    const first = await t.db.transaction().execute((trx) => recordReversal(trx, refund));
    const again = await t.db.transaction().execute((trx) => recordReversal(trx, refund));
    expect(first).toMatchObject({ created: true, charge: { id: paymentId, amount: '99.00' } });
    expect(again).toMatchObject({ created: false, id: first!.id });
    expect(await net(creatorId)).toBe('59.00');
    expect(await refundableAmount(t.db, paymentId)).toBe('59.00');
    const rows = await t.db.selectFrom('payments').select(['kind', 'amount', 'reverses_payment_id']).where('creator_id', '=', creatorId).orderBy('kind').execute();
    expect(rows).toEqual([
      { kind: 'charge', amount: '99.00', reverses_payment_id: null },
      { kind: 'refund', amount: '-40.00', reverses_payment_id: paymentId },
    ]);
  });

  it('a dispute takes the money back and a dispute won returns it; neither counts as refunded', async () => {
    const { paymentId, creatorId } = await charge('50.00');
    const key = randomUUID();
    await t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'dispute', amount: '50.00', providerRef: 'dp_1', systemKey: `dispute-${key}`, now: new Date() }));
    expect(await net(creatorId)).toBe('0.00');
    await t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'dispute_won', amount: '50.00', providerRef: 'dp_1', systemKey: `dispute-won-${key}`, now: new Date() }));
    expect(await net(creatorId)).toBe('50.00');
    expect(await refundableAmount(t.db, paymentId)).toBe('50.00');
  });

  it('a reversal with the wrong sign is refused, and a client key in the system keys', async () => {
    const { paymentId } = await charge();
    await expect(
      t.db.transaction().execute((trx) => recordReversal(trx, { paymentId, kind: 'refund', amount: '-5.00', providerRef: null, systemKey: `refund-${randomUUID()}`, now: new Date() })),
    ).rejects.toThrow(/positive rand/);
    await expect(
      t.db.insertInto('payments').values({ user_id: null, tier_id: null, amount: '5.00', provider: 'builtin', provider_ref: null, status: 'succeeded', kind: 'refund', reverses_payment_id: paymentId }).execute(),
    ).rejects.toThrow(/payments_amount_check/);
    await expect(
      t.db.updateTable('payments').set({ system_key: 'x' }).where('id', '=', paymentId).execute(),
    ).rejects.toThrow(/payments_one_key_check/);
  });
});
