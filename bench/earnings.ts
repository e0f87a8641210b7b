import { sql } from 'kysely';
import { systemClock } from '../core/clock';
import { loadConfig } from '../core/config';
import { createPaymentProvider } from '../core/payments';
import { DAY_MS } from '../domain/billing/periods';
import { DEFAULT_EARNINGS_POLICY } from '../domain/earnings/policy';
import { splitPayments } from '../domain/earnings/split';
import { earningsChart, earningsSummary, monthlyStatement, myPayouts } from '../server/features/earnings/earnings.service';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, percentile, type Figure } from './lib/figures';

/**
 * The Earnings screen's queries (issues 26 and 45) for one creator over about LINES journal lines
 * (a year of charges, each a journal of three lines: the provider's money, the fee and the
 * earning; a refund in every 20th): the summary (balances, pending by day, payout totals, the
 * account), the weekly and monthly chart, the first page of payouts and this month's statement,
 * each timed through the service as the screen calls it (median of RUNS). Beside them a floor: the
 * same balance sums (available, pending, paid out, net) in one SQL statement over the creator's
 * lines, the least any screen showing these figures must read.
 */
export async function benchEarnings(ctx: BenchContext): Promise<Array<Figure | string>> {
  const LINES = Math.max(6_000, Math.round(1_000_000 * ctx.scale));
  const RUNS = ctx.quick ? 5 : 30;
  const bench = await createBenchDb();
  try {
    const db = bench.db;
    const { id: creatorId } = await db.insertInto('users').values({ email: 'earn@bench.test', password_hash: 'x', email_verified_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('profiles').values({ id: creatorId, username: 'earner', display_name: 'Earner', date_of_birth: '1990-01-01', is_creator: true }).execute();
    const { id: fanId } = await db.insertInto('users').values({ email: 'fan@bench.test', password_hash: 'x', email_verified_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    const { id: tierId } = await db.insertInto('subscription_tiers').values({ creator_id: creatorId, name: 'Gold', price_cents: 50_00, payment_interval: 'weekly' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('payout_accounts').values({ user_id: creatorId, provider: 'builtin', provider_account_id: 'test_acct_bench', status: 'enabled' }).execute();
    // each charge is a journal of three lines (a third of them the creator's), and so is the refund of every 20th: LINES or just over
    const charges = Math.ceil(LINES / 3 / 1.05);
    const ids = (
      await sql<{ id: string }>`
        insert into payments (user_id, tier_id, creator_id, amount_cents, provider, status, kind, system_key, created_at)
        select ${fanId}, ${tierId}, ${creatorId}, (10 + i % 90) * 100, 'builtin', 'succeeded', 'charge', 'bench-' || i,
               now() - (i::bigint * ${Math.round((365 * DAY_MS) / charges)}::bigint) * interval '1 millisecond'
        from generate_series(1, ${charges}) i returning id`.execute(db)
    ).rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 2_000) await db.transaction().execute((trx) => splitPayments(trx, ids.slice(i, i + 2_000), DEFAULT_EARNINGS_POLICY));
    const refunds = (
      await sql<{ id: string }>`
        insert into payments (user_id, tier_id, creator_id, amount_cents, provider, status, kind, reverses_payment_id, system_key, created_at)
        select user_id, tier_id, creator_id, -amount_cents, provider, 'succeeded', 'refund', id, 'bench-refund-' || id, created_at + interval '1 day'
        from payments where kind = 'charge' and system_key like 'bench-%' and (substr(system_key, 7)::int % 20) = 0 returning id`.execute(db)
    ).rows.map((r) => r.id);
    for (let i = 0; i < refunds.length; i += 2_000) await db.transaction().execute((trx) => splitPayments(trx, refunds.slice(i, i + 2_000)));
    await sql`analyze`.execute(db);
    const lines = Number((await sql<{ n: string }>`select count(*) as n from journal_lines`.execute(db)).rows[0]!.n);
    const accounts = (await db.selectFrom('ledger_accounts').select('id').where('owner_id', '=', creatorId).execute()).map((a) => a.id);

    const config = loadConfig({ ...process.env, DATABASE_URL: bench.url });
    const deps = { db, config, payments: createPaymentProvider(config), clock: systemClock, queues: undefined as never, log: undefined as never };
    const time = async (fn: () => Promise<unknown>) => {
      await fn();
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await fn();
        ms.push(performance.now() - t0);
      }
      return ms.sort((a, b) => a - b);
    };
    const now = new Date();
    const floor = await time(() =>
      sql`select coalesce(-sum(amount_cents) filter (where available_at is null or available_at <= ${now}), 0),
                 coalesce(-sum(amount_cents) filter (where available_at > ${now}), 0),
                 coalesce(sum(amount_cents) filter (where kind in ('payout_requested', 'payout_failed')), 0),
                 coalesce(-sum(amount_cents) filter (where kind not in ('payout_requested', 'payout_failed', 'hold_released', 'loss_written_off')), 0)
          from journal_lines where account_id in (${sql.join(accounts)})`.execute(db),
    );
    const floorMs = percentile(floor, 0.5);
    const month = now.toISOString().slice(0, 7);
    const out: Array<Figure | string> = [`earnings: ${lines} journal lines (${charges} charges, ${refunds.length} refunds of one creator), median of ${RUNS} runs`];
    const screens: [string, () => Promise<unknown>][] = [
      ['summary (balances, pending by day, payouts, account)', () => earningsSummary(deps, creatorId)],
      ['chart (12 weeks)', () => earningsChart(deps, creatorId, { by: 'week' })],
      ['chart (12 months)', () => earningsChart(deps, creatorId, { by: 'month' })],
      ['payouts (first page)', () => myPayouts(deps, creatorId, null)],
      ['statement (this month, totals + lines)', () => monthlyStatement(deps, creatorId, { month })],
    ];
    for (const [name, fn] of screens) {
      const ms = await time(fn);
      out.push(figure(`earnings ${name}`, percentile(ms, 0.5), floorMs, 'ms', { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), note: 'floor: the four balance sums in one statement' }));
    }
    return out;
  } finally {
    await bench.destroy();
  }
}
