import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import { migrateDown, migrateToLatest } from '../../core/db/migrate';
import type { DB } from '../../core/db/kysely';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { carryOutRefund, decideRefund } from '../../domain/billing/refunds';
import { recordReversal } from '../../domain/billing/reversals';
import { creatorBalances } from '../../domain/earnings/balances';
import { carryOutPayout, requestPayout } from '../../domain/earnings/payouts';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';
import { systemClock } from '../../core/clock';
import { makeUser } from '../helpers/factories';
import { createTestDb } from '../helpers/test-db';

/**
 * The double-entry migration (20261206_0100) keeps every creator's money: a history made through
 * the app (charges in and past the hold, a refund decided and made, a dispute, a payout paid and
 * one refused) is taken down to the two-party `ledger_entries` and up again, and each creator's
 * balances read the same in the old table (its own sums) and in the journals carried from it (read
 * through the month totals the later migration 20261206_0600 sums from them), and the open dispute
 * is carried as open (20261206_0500).
 */
async function history(db: DB) {
  const creators = [await makeUser(db, { isCreator: true }), await makeUser(db, { isCreator: true })];
  const fan = await makeUser(db);
  const now = Date.now();
  const charges: string[] = [];
  for (const [i, c] of creators.entries()) {
    await db.insertInto('payout_accounts').values({ user_id: c.id, provider: 'builtin', provider_account_id: `test_acct_${c.id}`, status: 'enabled' }).execute();
    for (const [j, daysAgo] of [20, 10, 2].entries()) {
      charges.push(
        await db.transaction().execute((trx) =>
          insertPayment(trx, {
            userId: fan.id, tierId: null, creatorId: c.id, subscriptionId: null, description: 'Tip', idempotencyKey: null, systemKey: `m-${c.id}-${j}`,
            amountCents: (300 + i * 50 + j) * 100, provider: 'builtin', providerRef: null, status: 'succeeded', createdAt: new Date(now - daysAgo * DAY_MS),
            tip: { message: null }, earnings: DEFAULT_EARNINGS_POLICY,
          }),
        ),
      );
    }
  }
  const clock = systemClock;
  await db.transaction().execute((trx) => decideRefund(trx, { paymentId: charges[0]!, amountCents: 100_00, systemKey: 'm-refund-1', now: new Date() }));
  await carryOutRefund({ db, providerFor: () => builtinProvider, clock }, { paymentId: charges[0]!, amountCents: 100_00, systemKey: 'm-refund-1' });
  await db.transaction().execute((trx) => decideRefund(trx, { paymentId: charges[2]!, amountCents: 50_00, systemKey: 'm-refund-2', now: new Date() }));
  await db.transaction().execute((trx) => recordReversal(trx, { paymentId: charges[3]!, kind: 'dispute', amountCents: 200_00, providerRef: null, systemKey: 'm-dispute', now: new Date() }));
  const paid = await requestPayout({ db, clock }, { creatorId: creators[0]!.id, trigger: 'request', key: 'm-payout-1', minimumCents: 1 });
  await carryOutPayout({ db, providerFor: () => builtinProvider, clock }, paid.payout.id);
  const refused = await requestPayout({ db, clock }, { creatorId: creators[1]!.id, trigger: 'request', key: 'm-payout-2', minimumCents: 1 });
  await carryOutPayout({ db, providerFor: () => ({ ...builtinProvider, async transfer() { return { ok: false, reason: 'refused (test)' }; } }), clock }, refused.payout.id);
  return creators;
}

const MIGRATIONS = path.join(import.meta.dirname, '../../migrations');

const oldBalances = async (db: DB, creatorId: string, now: Date) => {
  const { rows } = await sql<{ available: string; pending: string }>`
    select coalesce(sum(amount_cents) filter (where available_at <= ${now}), 0) as available,
           coalesce(sum(amount_cents) filter (where available_at > ${now}), 0) as pending
    from ledger_entries where account = 'creator' and creator_id = ${creatorId}`.execute(db);
  return { available: Number(rows[0]!.available), pending: Number(rows[0]!.pending) };
};

describe('the double-entry migration', () => {
  it('carries every creator\'s balances from the two-party table into balanced journals and back', async () => {
    const fresh = await createTestDb();
    try {
      const db = fresh.db;
      const creators = await history(db);
      const now = new Date();
      const before = await Promise.all(creators.map((c) => creatorBalances(db, c.id, now)));
      expect(before.some((b) => b.available !== 0) && before.some((b) => b.pending !== 0)).toBe(true);

      // back to before the ledger's migration, whatever came after it
      await migrateDown(db, (await readdir(MIGRATIONS)).filter((f) => /^\d/.test(f) && f >= '20261206_0100').length);
      for (const [i, c] of creators.entries()) {
        expect(await oldBalances(db, c.id, now), `creator ${i} in ledger_entries`).toEqual({ available: before[i]!.available, pending: before[i]!.pending });
      }

      await migrateToLatest(db);
      for (const [i, c] of creators.entries()) {
        const after = await creatorBalances(db, c.id, now);
        expect({ available: after.available, pending: after.pending }, `creator ${i} carried into journals`).toEqual({ available: before[i]!.available, pending: before[i]!.pending });
      }
      // the dispute, open when the migrations went down, is carried as open (held, and as much reserved against it)
      const held = async (kind: string) =>
        Number((await sql<{ s: string }>`select coalesce(sum(l.amount_cents), 0) as s from journal_lines l join ledger_accounts a on a.id = l.account_id where a.kind = ${kind}`.execute(db)).rows[0]!.s);
      expect([await held('disputes_open'), await held('dispute_reserve')]).toEqual([200_00, -200_00]);
      const off = await sql`select journal_id from journal_lines group by journal_id having sum(amount_cents) <> 0`.execute(db);
      expect(off.rows).toEqual([]);
      expect(Number((await sql<{ s: string }>`select coalesce(sum(amount_cents), 0) as s from journal_lines`.execute(db)).rows[0]!.s)).toBe(0);
    } finally {
      await fresh.destroy();
    }
  });
});
