import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock';
import { builtinProvider } from '../../core/payments/builtin';
import type { PaymentProvider } from '../../core/payments/provider';
import { endSubscriptionsOfDeletedUser } from '../../domain/billing/account-deletion';
import { insertPayment } from '../../domain/billing/billing.queries';
import { DAY_MS } from '../../domain/billing/periods';
import { carryOutRefund, decideRefund } from '../../domain/billing/refunds';
import { refundLeftCents } from '../../domain/billing/refund-requests';
import { recordReversal } from '../../domain/billing/reversals';
import { creatorBalances } from '../../domain/earnings/balances';
import { closeLostDispute } from '../../domain/earnings/disputes';
import { reconcileDay } from '../../domain/earnings/reconciliation';
import { carryOutPayout, requestPayout } from '../../domain/earnings/payouts';
import type { EarningsPolicy } from '../../domain/earnings/policy';
import { platformFee } from '../../domain/earnings/split';
import { makeUser, type MadeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clockStart } from '../helpers/test-clock';

/**
 * The ledger's invariants (issue 45) over random histories, generated and shrunk by fast-check:
 * charges of every kind (subscription, tip, pay-per-view post and message, Premium), refunds
 * decided two at a time on one charge and made by their jobs, refunds made at the provider,
 * disputes opened, then won or lost (a lost one reported twice), payouts paid and refused, fans and
 * creators deleting their accounts, and time passing. After every step:
 *   - every journal sums to zero, and so does the trial balance (all lines);
 *   - the accounting equation: the providers' money less what is owed (creators, refunds owed,
 *     payouts in transit) is the platform's result, its revenue less its losses;
 *   - the platform's revenue from charges is exactly the fees of the charges, and every loss has
 *     its reason;
 *   - each creator account's month totals (what balances and the monthly chart read) are exactly
 *     the sums of its lines by month and kind;
 *   - the money held in open disputes (disputes_open) is minus what is reserved against them
 *     (dispute_reserve), and both are the sum of the disputes still open;
 *   - a payout never pays a creator more than they have earned net of everything taken back, and
 *     no refunds of one charge add up to more than the charge;
 * and at the end the daily reconciliation finds nothing amiss on any day of the history.
 */
const app = useFileServer({ emptyUsers: true });

const POLICY: EarningsPolicy = { feePercent: 20, holdDays: 7, payoutMinimumCents: 5_000, payoutWeekday: 1 };
const PURPOSES = ['subscription', 'tip', 'post_unlock', 'message_unlock', 'premium'] as const;

type Step =
  | { t: 'charge'; purpose: (typeof PURPOSES)[number]; creator: number; fan: number; cents: number }
  | { t: 'refunds'; charge: number; a: number; b: number }
  | { t: 'providerRefund'; charge: number; cents: number }
  | { t: 'dispute'; charge: number }
  | { t: 'closeDispute'; dispute: number; won: boolean }
  | { t: 'payout'; creator: number; refused: boolean }
  | { t: 'time'; days: number }
  | { t: 'deleteFan'; fan: number }
  | { t: 'deleteCreator'; creator: number; payoutRefused: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('charge' as const), purpose: fc.constantFrom(...PURPOSES), creator: fc.nat(1), fan: fc.nat(2), cents: fc.integer({ min: 1, max: 90_000 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('refunds' as const), charge: fc.nat(), a: fc.integer({ min: 1, max: 90_000 }), b: fc.integer({ min: 1, max: 90_000 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('providerRefund' as const), charge: fc.nat(), cents: fc.integer({ min: 1, max: 90_000 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('dispute' as const), charge: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('closeDispute' as const), dispute: fc.nat(), won: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('payout' as const), creator: fc.nat(1), refused: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('time' as const), days: fc.integer({ min: 1, max: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deleteFan' as const), fan: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deleteCreator' as const), creator: fc.nat(1), payoutRefused: fc.boolean() }) },
);

const sumOf = async (where: ReturnType<typeof sql>) =>
  Number((await sql<{ s: string }>`select coalesce(sum(l.amount_cents), 0) as s from journal_lines l join ledger_accounts a on a.id = l.account_id where ${where}`.execute(app.deps.db)).rows[0]!.s);

async function checkBooks(runTag: string, charges: { id: string; cents: number; platformOnly: boolean }[], disputes: { cents: number; open: boolean }[]) {
  const db = app.deps.db;
  const unbalanced = await sql`select journal_id, sum(amount_cents) from journal_lines group by journal_id having sum(amount_cents) <> 0`.execute(db);
  expect(unbalanced.rows, `${runTag}: every journal sums to zero`).toEqual([]);
  expect(await sumOf(sql`true`), `${runTag}: the trial balance is zero`).toBe(0);

  const cash = await sumOf(sql`a.kind = 'provider_cash'`);
  const owed = 0 - (await sumOf(sql`a.kind in ('creator_pending', 'creator_available', 'refunds_owed', 'payouts_in_transit')`));
  const revenue = 0 - (await sumOf(sql`a.kind = 'platform_revenue'`));
  const lost = await sumOf(sql`a.kind = 'losses'`);
  expect(cash - owed, `${runTag}: the providers' money less what is owed is the platform's result`).toBe(revenue - lost);

  const ids = charges.map((c) => c.id);
  if (ids.length > 0) {
    const chargeRevenue = 0 - (await sumOf(sql`a.kind = 'platform_revenue' and l.kind = 'charge' and l.journal_id in (select id from journal_entries where payment_id in (${sql.join(ids)}))`));
    const fees = charges.reduce((t, c) => t + (c.platformOnly ? c.cents : platformFee(c.cents, POLICY.feePercent)), 0);
    expect(chargeRevenue, `${runTag}: the platform's revenue from charges is their fees`).toBe(fees);
    const over = await sql`
      select c.id from payments c where c.id in (${sql.join(ids)})
      and -coalesce((select sum(r.amount_cents) from payments r where r.reverses_payment_id = c.id and r.kind = 'refund'), 0)
          + coalesce((select sum(q.amount_cents) from refund_requests q where q.payment_id = c.id and q.completed_at is null), 0) > c.amount_cents`.execute(db);
    expect(over.rows, `${runTag}: refunds of a charge never exceed it`).toEqual([]);
  }
  const openCents = disputes.reduce((t, d) => t + (d.open ? d.cents : 0), 0);
  expect(await sumOf(sql`a.kind = 'disputes_open'`), `${runTag}: the open disputes on the books are the disputes still open`).toBe(openCents);
  expect(0 - (await sumOf(sql`a.kind = 'dispute_reserve'`)), `${runTag}: as much is reserved against them`).toBe(openCents);
  const driftedTotals = await sql`
    select coalesce(l.account_id, t.account_id) as account_id, coalesce(l.month, t.month) as month, coalesce(l.kind, t.kind) as kind, l.cents as lines, t.cents as totals
    from (select l.account_id, date_trunc('month', l.occurred_at at time zone 'UTC')::date as month, l.kind, sum(l.amount_cents) as cents
          from journal_lines l join ledger_accounts a on a.id = l.account_id where a.kind in ('creator_pending', 'creator_available') group by 1, 2, 3) l
    full join ledger_month_totals t on t.account_id = l.account_id and t.month = l.month and t.kind = l.kind
    where l.cents is distinct from t.cents`.execute(db);
  expect(driftedTotals.rows, `${runTag}: each creator account's month totals are the sums of its lines`).toEqual([]);
  const reasonless = await sql`select j.id from journal_entries j join journal_lines l on l.journal_id = j.id join ledger_accounts a on a.id = l.account_id
    where a.kind = 'losses' and j.reason is null`.execute(db);
  expect(reasonless.rows, `${runTag}: every loss has its reason`).toEqual([]);
}

describe('the ledger over random histories', () => {
  it('keeps its books balanced and its invariants, whatever happens', async () => {
    let run = 0;
    // the database outlives a run: so do the disputes a run left open
    const disputes: { id: string; chargeId: string; cents: number; open: boolean }[] = [];
    const premium = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).executeTakeFirst();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        run += 1;
        const db = app.deps.db;
        const clock = fixedClock(clockStart());
        const deps = { db, clock };
        const creators: (MadeUser | null)[] = [await makeUser(db, { isCreator: true }), await makeUser(db, { isCreator: true })];
        const fans: (MadeUser | null)[] = [await makeUser(db), await makeUser(db), await makeUser(db)];
        for (const c of creators) {
          await db.insertInto('payout_accounts').values({ user_id: c!.id, provider: 'builtin', provider_account_id: `test_acct_${c!.id}`, status: 'enabled' }).execute();
        }
        const charges: { id: string; cents: number; platformOnly: boolean }[] = [];
        const provider = (refused: boolean): PaymentProvider => ({
          ...builtinProvider,
          async transfer(t) {
            return refused ? { ok: false, reason: 'account_closed (test)' } : { ok: true, ref: `tr_${t.idempotencyKey}` };
          },
        });
        const settleRefunds = async () => {
          const jobs = await db.selectFrom('outbox').select('data').where('name', '=', 'provider-refund').where('done_at', 'is', null).execute();
          for (const j of jobs) {
            await carryOutRefund({ db, providerFor: () => builtinProvider, clock }, j.data as never);
            await db.updateTable('outbox').set({ done_at: clock.now() }).where('data', '=', j.data).execute();
          }
        };
        const settlePayouts = async (refused: boolean) => {
          for (const p of await db.selectFrom('payouts').select('id').where('status', '=', 'pending').execute()) {
            await carryOutPayout({ db, providerFor: () => provider(refused), clock }, p.id);
          }
        };
        let n = 0;
        for (const s of steps) {
          n += 1;
          const key = `run${run}-${n}-${Math.random().toString(36).slice(2)}`;
          const now = clock.now();
          const pick = <T,>(xs: readonly T[], i: number) => xs[i % xs.length];
          if (s.t === 'charge') {
            const creator = creators[s.creator];
            const fan = fans[s.fan];
            const toPremium = s.purpose === 'premium' && premium;
            if (!fan || (!creator && !toPremium)) continue;
            const id = await db.transaction().execute((trx) =>
              insertPayment(trx, {
                userId: fan.id, tierId: toPremium ? premium.id : null, creatorId: toPremium ? null : creator!.id, subscriptionId: null,
                description: s.purpose, idempotencyKey: null, systemKey: `charge-${key}`, amountCents: s.cents, provider: 'builtin', providerRef: null,
                status: 'succeeded', createdAt: now, earnings: POLICY,
                ...(s.purpose === 'tip' ? { tip: { message: null } } : {}),
                ...(s.purpose === 'post_unlock' || s.purpose === 'message_unlock' ? { purpose: s.purpose } : {}),
              }),
            );
            charges.push({ id, cents: s.cents, platformOnly: Boolean(toPremium) });
          } else if (s.t === 'refunds') {
            const charge = pick(charges, s.charge);
            if (!charge) continue;
            // two refunds of one charge decided at once (an admin's and a duplicate purchase's): never more than the charge
            await Promise.all(
              [s.a, s.b].map((cents, i) =>
                db.transaction().execute((trx) => decideRefund(trx, { paymentId: charge.id, amountCents: Math.min(cents, charge.cents), systemKey: `refund-${key}-${i}`, now })),
              ),
            );
            await settleRefunds();
          } else if (s.t === 'providerRefund') {
            const charge = pick(charges, s.charge);
            // made at the provider's dashboard: the provider refunds at most what is left of the charge
            const left = charge ? await refundLeftCents(db, charge.id) : 0;
            if (!charge || left <= 0) continue;
            await db.transaction().execute((trx) =>
              recordReversal(trx, { paymentId: charge.id, kind: 'refund', amountCents: Math.min(s.cents, left), providerRef: null, systemKey: `prefund-${key}`, now }),
            );
          } else if (s.t === 'dispute') {
            const charge = pick(charges, s.charge);
            if (!charge) continue;
            const opened = await db.transaction().execute((trx) =>
              recordReversal(trx, { paymentId: charge.id, kind: 'dispute', amountCents: charge.cents, providerRef: null, systemKey: `dispute-${key}`, now }),
            );
            disputes.push({ id: opened!.id, chargeId: charge.id, cents: charge.cents, open: true });
          } else if (s.t === 'closeDispute') {
            const dispute = pick(disputes.filter((d) => d.open), s.dispute);
            if (!dispute) continue;
            if (s.won) {
              await db.transaction().execute((trx) =>
                recordReversal(trx, { paymentId: dispute.chargeId, kind: 'dispute_won', amountCents: dispute.cents, providerRef: null, systemKey: `won-${key}`, now }),
              );
            } else {
              // lost, and the provider's word on it delivered twice: closed once
              for (let i = 0; i < 2; i++) await db.transaction().execute((trx) => closeLostDispute(trx, { disputeId: dispute.id, now }));
            }
            dispute.open = false;
          } else if (s.t === 'payout') {
            const creator = creators[s.creator];
            if (!creator) continue;
            const before = await creatorBalances(db, creator.id, now);
            try {
              const { payout } = await requestPayout(deps, { creatorId: creator.id, trigger: 'request', key: `payout-${key}`, minimumCents: POLICY.payoutMinimumCents });
              const after = await creatorBalances(db, creator.id, now);
              expect(payout.amountCents, `run ${run}: a payout pays what is available`).toBe(before.available);
              expect(after.paidOut, `run ${run}: never paid out more than earned net of reversals`).toBeLessThanOrEqual(after.net);
            } catch (error) {
              expect(String(error)).toMatch(/withdraw|on its way/);
            }
            await settlePayouts(s.refused);
          } else if (s.t === 'time') {
            clock.advance(s.days * DAY_MS);
          } else if (s.t === 'deleteFan' || s.t === 'deleteCreator') {
            const list = s.t === 'deleteFan' ? fans : creators;
            const i = s.t === 'deleteFan' ? s.fan : s.creator;
            const user = list[i];
            if (!user) continue;
            await db.transaction().execute(async (trx) => {
              await endSubscriptionsOfDeletedUser(trx, user.id, now, { accountGoes: true });
              await trx.deleteFrom('users').where('id', '=', user.id).execute();
            });
            list[i] = null;
            await settleRefunds();
            // a deletion's payout the provider refuses comes back to no one: the platform's (negative) loss, with its reason
            await settlePayouts(s.t === 'deleteCreator' && s.payoutRefused);
          }
          await checkBooks(`run ${run}, step ${n} (${s.t}) of ${JSON.stringify(steps)}`, charges, disputes);
        }
        // the daily reconciliation finds our payments and payouts rows and the ledger in agreement, every day of the history
        const days = await sql<{ day: Date }>`
          select distinct date_trunc('day', created_at, 'UTC') as day from payments where id in (${sql.join([...charges.map((c) => c.id), '00000000-0000-0000-0000-000000000000'])})
          union select distinct date_trunc('day', settled_at, 'UTC') from payouts where settled_at is not null and settled_at >= ${clockStart()}`.execute(db);
        for (const { day } of days.rows) {
          expect(await reconcileDay({ db, providerFor: () => builtinProvider }, new Date(day)), `run ${run}: reconciled ${day.toISOString()}`).toEqual([]);
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
  }, 240_000);
});
