import { describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../../core/payments/provider';
import { builtinProvider } from '../../core/payments/builtin';
import { insertPayment } from '../../domain/billing/billing.queries';
import { fixedClock } from '../../core/clock';
import { DAY_MS } from '../../domain/billing/periods';
import { recordReversal, type ReversalKind } from '../../domain/billing/reversals';
import { creatorBalances } from '../../domain/earnings/balances';
import { carryOutPayout, requestPayout } from '../../domain/earnings/payouts';
import { platformFee } from '../../domain/earnings/split';
import type { EarningsPolicy } from '../../domain/earnings/policy';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clockStart } from '../helpers/test-clock';

/**
 * The earnings ledger's invariants (issue 26 §1) over random histories of charges, refunds,
 * disputes, disputes won, payouts (some refused by the provider) and time passing, from a seeded
 * generator (a failure names its seed: rerun it with the same one). After every step:
 *   - every succeeded payment's journal moves the provider's money by its amount and splits it
 *     into the platform's revenue and the creator's earning;
 *   - a charge's earning is its amount less the fee, a Premium charge all the platform's;
 *   - for every creator: available + pending + paid out (payouts not failed) = earnings − reversals;
 *   - a payout never takes the available balance below zero, and none is made below the minimum.
 */
const app = useFileServer({ emptyUsers: true });

/** mulberry32: small, seedable, good enough to pick steps. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

const POLICY: EarningsPolicy = { feePercent: 20, holdDays: 7, payoutMinimumCents: 20_000, payoutWeekday: 1 };

async function checkInvariants(creators: MadeUser[], premiumIds: Set<string>, now: Date, seed: number) {
  const db = app.deps.db;
  const lines = await db
    .selectFrom('payments as p')
    .innerJoin('journal_entries as j', 'j.payment_id', 'p.id')
    .innerJoin('journal_lines as l', 'l.journal_id', 'j.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .select(['p.id', 'p.amount_cents as payment_cents', 'p.kind', 'a.kind as account', 'l.amount_cents'])
    .where('p.status', '=', 'succeeded')
    // this history's payments (earlier tests' creators are gone, their payments anonymous)
    .where((eb) => eb.or([eb('p.system_key', 'like', `charge-${seed}-%`), eb('p.system_key', 'like', `rev-${seed}-%`)]))
    .execute();
  const byPayment = new Map<string, { amount: number; kind: string; cash: number; platform: number; creatorPart: number | null }>();
  for (const r of lines) {
    const p = byPayment.get(r.id) ?? { amount: Number(r.payment_cents), kind: r.kind, cash: 0, platform: 0, creatorPart: null };
    if (r.account === 'provider_cash') p.cash += Number(r.amount_cents);
    if (r.account === 'platform_revenue') p.platform -= Number(r.amount_cents);
    if (r.account === 'creator_pending' || r.account === 'creator_available') p.creatorPart = -Number(r.amount_cents);
    byPayment.set(r.id, p);
  }
  for (const [id, p] of byPayment) {
    expect(p.cash, `seed ${seed}: payment ${id}: the provider's money moves by its amount`).toBe(p.amount);
    expect(p.platform + (p.creatorPart ?? 0), `seed ${seed}: payment ${id} splits into its amount`).toBe(p.amount);
    if (p.kind === 'charge') {
      const total = p.amount;
      if (premiumIds.has(id)) expect(p.creatorPart, `seed ${seed}: Premium is the platform's`).toBeNull();
      else expect(p.creatorPart, `seed ${seed}: earning = amount − fee`).toBe(total - platformFee(total, POLICY.feePercent));
    }
  }
  for (const c of creators) {
    const b = await creatorBalances(db, c.id, now);
    const paid = await db
      .selectFrom('payouts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('s'))
      .where('creator_id', '=', c.id)
      .where('status', '<>', 'failed')
      .executeTakeFirstOrThrow();
    expect(b.available + b.pending + Number(paid.s), `seed ${seed}: ${c.username}: available + pending + paid out = earnings − reversals`).toBe(b.net);
  }
}

describe('the earnings ledger', () => {
  it.each([1, 7, 42, 2026])('keeps its invariants over a random history (seed %i)', async (seed) => {
    const r = rng(seed);
    const db = app.deps.db;
    const clock = fixedClock(clockStart());
    const creators = [await makeUser(db, { isCreator: true }), await makeUser(db, { isCreator: true })];
    const fans = [await makeUser(db), await makeUser(db), await makeUser(db)];
    const tiers = await Promise.all(
      creators.map((c) => db.insertInto('subscription_tiers').values({ creator_id: c.id, name: 'Gold', price_cents: 300_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow()),
    );
    const premium = await db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).executeTakeFirst();
    for (const c of creators) {
      await db.insertInto('payout_accounts').values({ user_id: c.id, provider: 'builtin', provider_account_id: `test_acct_${c.id}`, status: 'enabled' }).execute();
    }
    // a provider whose transfers are refused at random (and succeed otherwise)
    const flaky: PaymentProvider = {
      ...builtinProvider,
      async transfer(t) {
        return r.next() < 0.3 ? { ok: false, reason: 'account_closed (test)' } : { ok: true, ref: `tr_${t.idempotencyKey}` };
      },
    };
    const charges: { id: string; amount: number }[] = [];
    const premiumIds = new Set<string>();
    for (let step = 0; step < 60; step++) {
      const roll = r.next();
      const now = clock.now();
      if (roll < 0.4 || charges.length === 0) {
        const i = r.int(0, creators.length - 1);
        const toPremium = premium && r.next() < 0.1;
        const cents = r.int(1, 50_000);
        const id = await db.transaction().execute((trx) =>
          insertPayment(trx, {
            userId: r.pick(fans).id, tierId: toPremium ? premium.id : tiers[i]!.id, creatorId: toPremium ? null : creators[i]!.id, subscriptionId: null,
            description: 'random', idempotencyKey: null, systemKey: `charge-${seed}-${step}`, amountCents: cents, provider: 'builtin',
            providerRef: null, status: r.next() < 0.1 ? 'failed' : 'succeeded', createdAt: now, earnings: POLICY,
          }),
        );
        charges.push({ id, amount: cents });
        if (toPremium) premiumIds.add(id);
      } else if (roll < 0.6) {
        const charge = r.pick(charges);
        const kind = r.pick<ReversalKind>(['refund', 'refund', 'dispute', 'dispute_won']);
        const cents = r.next() < 0.5 ? charge.amount : r.int(1, charge.amount);
        await db.transaction().execute((trx) =>
          recordReversal(trx, { paymentId: charge.id, kind, amountCents: cents, providerRef: null, systemKey: `rev-${seed}-${step}`, now }),
        );
      } else if (roll < 0.8) {
        const creator = r.pick(creators);
        const before = await creatorBalances(db, creator.id, now);
        try {
          const { payout } = await requestPayout({ db, clock }, { creatorId: creator.id, trigger: 'request', key: `p-${seed}-${step}`, minimumCents: POLICY.payoutMinimumCents });
          expect(payout.amountCents).toBe(before.available);
          expect(payout.amountCents).toBeGreaterThanOrEqual(POLICY.payoutMinimumCents);
          expect((await creatorBalances(db, creator.id, now)).available).toBe(0);
          await carryOutPayout({ db, providerFor: () => flaky, clock }, payout.id);
        } catch (error) {
          // refused: below the minimum (or below zero), or one already on its way
          expect(before.available < POLICY.payoutMinimumCents || (await db.selectFrom('payouts').select('id').where('creator_id', '=', creator.id).where('status', '=', 'pending').executeTakeFirst())).toBeTruthy();
          expect(String(error)).toMatch(/withdraw|on its way/);
        }
      } else {
        clock.advance(r.int(1, 5) * DAY_MS);
      }
      await checkInvariants(creators, premiumIds, clock.now(), seed);
    }
    // a balance that went below zero is never paid out
    for (const c of creators) {
      const b = await creatorBalances(db, c.id, clock.now());
      if (b.available < POLICY.payoutMinimumCents) {
        await expect(requestPayout({ db, clock }, { creatorId: c.id, trigger: 'request', key: `last-${seed}-${c.id}`, minimumCents: POLICY.payoutMinimumCents })).rejects.toThrow();
      }
    }
  });

  it('a refund of a pending earning nets out inside pending; after a payout, a refund takes the balance below zero and the next earning covers it', async () => {
    const db = app.deps.db;
    const clock = fixedClock(clockStart());
    const creator = await makeUser(db, { isCreator: true });
    const fan = await makeUser(db);
    const tier = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 300_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('payout_accounts').values({ user_id: creator.id, provider: 'builtin', provider_account_id: 'test_acct_x', status: 'enabled' }).execute();
    const charge = (key: string) =>
      db.transaction().execute((trx) =>
        insertPayment(trx, {
          userId: fan.id, tierId: tier.id, creatorId: creator.id, subscriptionId: null, description: 'Gold', idempotencyKey: null, systemKey: key,
          amountCents: 300_00, provider: 'builtin', providerRef: null, status: 'succeeded', createdAt: clock.now(), earnings: POLICY,
        }),
      );
    const balances = () => creatorBalances(db, creator.id, clock.now());

    const first = await charge('c1');
    expect(await balances()).toMatchObject({ available: 0, pending: 24_000 });
    const second = await charge('c2');
    await db.transaction().execute((trx) => recordReversal(trx, { paymentId: second, kind: 'refund', amountCents: 300_00, providerRef: null, systemKey: 'r2', now: clock.now() }));
    expect(await balances()).toMatchObject({ available: 0, pending: 24_000 });

    clock.advance(7 * DAY_MS + 1);
    expect(await balances()).toMatchObject({ available: 24_000, pending: 0 });
    const { payout } = await requestPayout({ db, clock }, { creatorId: creator.id, trigger: 'request', key: 'w1', minimumCents: POLICY.payoutMinimumCents });
    expect(await carryOutPayout({ db, providerFor: () => builtinProvider, clock }, payout.id)).toMatchObject({ paidCents: 240_00 });
    expect(await balances()).toMatchObject({ available: 0, paidOut: 24_000 });

    await db.transaction().execute((trx) => recordReversal(trx, { paymentId: first, kind: 'dispute', amountCents: 300_00, providerRef: null, systemKey: 'd1', now: clock.now() }));
    expect(await balances()).toMatchObject({ available: -24_000 });
    await expect(requestPayout({ db, clock }, { creatorId: creator.id, trigger: 'request', key: 'w2', minimumCents: POLICY.payoutMinimumCents })).rejects.toThrow(/withdraw once/);

    await charge('c3');
    clock.advance(7 * DAY_MS + 1);
    expect(await balances()).toMatchObject({ available: 0, pending: 0 });
  });
});
