import { sql } from 'kysely';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import { CREATOR_ACCOUNT_KINDS } from '../ledger/accounts';
import { creatorLines, EARNING_JOURNALS } from './balances';

/**
 * A creator's net earnings (their share of charges less what refunds and disputes took back, by
 * the date of each; balances.ts EARNING_JOURNALS) per period from `starts` (ascending; the last
 * period runs on), the one definition the Earnings chart and the Tiers tab's figures both read.
 * Each line finds its period by one binary search over the starts (width_bucket, 1-based),
 * cheaper than truncating every line's time to a week or month. Answers cents by period index.
 */
export async function netEarningsByPeriod(db: DB, creatorId: string, starts: readonly Date[]): Promise<number[]> {
  if (starts.every(isMonthStart)) return netEarningsByMonth(db, creatorId, starts);
  const bucket = sql<number>`width_bucket(l.occurred_at, ${sql.val(starts.map((d) => d.toISOString()))}::timestamptz[])`;
  const rows = await creatorLines(db, creatorId)
    .select([bucket.as('period'), sql<string>`-sum(l.amount_cents)`.as('cents')])
    .where('l.kind', 'in', EARNING_JOURNALS)
    .where('l.occurred_at', '>=', starts[0]!)
    .groupBy(sql`1`)
    .execute();
  const byPeriod = new Map(rows.map((r) => [Number(r.period), readCents(r.cents)]));
  return starts.map((_, i) => byPeriod.get(i + 1) ?? 0);
}

const isMonthStart = (d: Date) => d.getTime() === Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);

/**
 * The same by month, from the creator's month totals (ledger_month_totals: the same lines, summed by
 * the database as they are posted), a few rows a month instead of every line. A month after the
 * last start (a line dated ahead) counts in the last period, as the lines' version counts it.
 */
async function netEarningsByMonth(db: DB, creatorId: string, starts: readonly Date[]): Promise<number[]> {
  const rows = await db
    .selectFrom('ledger_month_totals as t')
    .innerJoin('ledger_accounts as a', 'a.id', 't.account_id')
    .select([sql<string>`to_char(t.month, 'YYYY-MM')`.as('month'), sql<string>`-sum(t.cents)`.as('cents')])
    .where('a.owner_id', '=', creatorId)
    .where('a.kind', 'in', CREATOR_ACCOUNT_KINDS)
    .where('t.kind', 'in', EARNING_JOURNALS)
    .where('t.month', '>=', starts[0]!.toISOString().slice(0, 10))
    .groupBy(sql`1`)
    .execute();
  const index = new Map(starts.map((s, i) => [s.toISOString().slice(0, 7), i]));
  const net = starts.map(() => 0);
  for (const r of rows) net[index.get(r.month) ?? starts.length - 1]! += readCents(r.cents);
  return net;
}

/** The starts (00:00 UTC) of the last `count` weeks (Monday) or months up to the one `now` is in, oldest first. */
export function periodStarts(now: Date, by: 'week' | 'month', count: number): Date[] {
  const starts: Date[] = [];
  if (by === 'week') {
    const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7));
    for (let i = count - 1; i >= 0; i--) starts.push(new Date(monday - i * 7 * 86_400_000));
  } else {
    for (let i = count - 1; i >= 0; i--) starts.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)));
  }
  return starts;
}
