import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';

export const PAYOUTS_PAGE_SIZE = 20;
/** Lines of a monthly statement sent to the screen and its CSV at most (the totals always cover the whole month). */
export const STATEMENT_LINES_MAX = 5_000;

/** Pending earnings by the day they become available (UTC), soonest first. */
export function findPendingByDay(db: DB, creatorId: string, now: Date) {
  return db
    .selectFrom('ledger_entries')
    .select([sql<string>`to_char(available_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'), sql<string>`sum(amount_cents)`.as('cents')])
    .where('account', '=', 'creator')
    .where('creator_id', '=', creatorId)
    .where('available_at', '>', now)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}

/** Payouts paid, and on their way, in one statement. */
export async function findPayoutTotals(db: DB, creatorId: string) {
  const row = await db
    .selectFrom('payouts')
    .select([
      sql<string>`coalesce(sum(amount_cents) filter (where status = 'paid'), 0)`.as('paid'),
      sql<string>`coalesce(sum(amount_cents) filter (where status = 'pending'), 0)`.as('on_its_way'),
    ])
    .where('creator_id', '=', creatorId)
    .executeTakeFirstOrThrow();
  return { paid: Number(row.paid), onItsWay: Number(row.on_its_way) };
}

/** Net earnings (charges less reversals) per UTC week (Monday) or month from `from` on. */
export function findNetByPeriod(db: DB, creatorId: string, unit: 'week' | 'month', from: Date) {
  const bucket = sql<string>`to_char(date_trunc(${unit}, created_at at time zone 'UTC'), 'YYYY-MM-DD')`;
  return db
    .selectFrom('ledger_entries')
    .select([bucket.as('starts'), sql<string>`sum(amount_cents)`.as('cents')])
    .where('account', '=', 'creator')
    .where('creator_id', '=', creatorId)
    .where('kind', 'in', ['charge', 'reversal'])
    .where('created_at', '>=', from)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}

/** The creator's payouts, newest first, keyset on (created_at, id). */
export function findPayouts(db: DB, creatorId: string, after: { at: string; id: string } | null) {
  return db
    .selectFrom('payouts')
    .select([
      'id', 'amount_cents', 'status', 'trigger', 'failure_reason', 'created_at', 'settled_at', 'provider',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_at'),
    ])
    .where('creator_id', '=', creatorId)
    .$if(after !== null, (qb) => qb.where(sql<boolean>`(created_at, id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PAYOUTS_PAGE_SIZE + 1)
    .execute();
}

/** A month's totals from the creator's ledger rows of that month, in one statement. */
export async function findStatementTotals(db: DB, creatorId: string, start: Date, end: Date) {
  const row = await db
    .selectFrom('ledger_entries as e')
    .leftJoin('payments as p', 'p.id', 'e.payment_id')
    .select([
      sql<string>`coalesce(sum(round(p.amount * 100)) filter (where e.kind = 'charge'), 0)`.as('gross'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'charge'), 0)`.as('earned'),
      // a refund decided and not made yet is a reversal row of its request, no payment yet
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'reversal' and (p.kind = 'refund' or e.refund_request_id is not null)), 0)`.as('refunds'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'reversal' and p.kind <> 'refund'), 0)`.as('disputes'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind in ('payout', 'payout_returned')), 0)`.as('payouts'),
    ])
    .where('e.account', '=', 'creator')
    .where('e.creator_id', '=', creatorId)
    .where('e.created_at', '>=', start)
    .where('e.created_at', '<', end)
    .executeTakeFirstOrThrow();
  return {
    gross: Number(row.gross), earned: Number(row.earned), refunds: Number(row.refunds), disputes: Number(row.disputes), payouts: Number(row.payouts),
  };
}

/** A month's ledger rows (oldest first), for the statement's lines and CSV. */
export function findStatementLines(db: DB, creatorId: string, start: Date, end: Date) {
  return db
    .selectFrom('ledger_entries as e')
    .leftJoin('payments as p', 'p.id', 'e.payment_id')
    .leftJoin('payouts as o', 'o.id', 'e.payout_id')
    .select(['e.id', 'e.created_at', 'e.kind', 'e.amount_cents', 'e.available_at', 'p.kind as payment_kind', 'p.description', 'p.amount as gross', 'o.status as payout_status'])
    .where('e.account', '=', 'creator')
    .where('e.creator_id', '=', creatorId)
    .where('e.created_at', '>=', start)
    .where('e.created_at', '<', end)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .limit(STATEMENT_LINES_MAX + 1)
    .execute();
}

/**
 * The platform per month (admins): gross, fees, refunds and disputes (both sides), creators'
 * earnings and payouts, from the ledger rows (ledger_entries_month_idx).
 */
export function findPlatformMonths(db: DB, from: Date) {
  return db
    .selectFrom('ledger_entries as e')
    .leftJoin('payments as p', 'p.id', 'e.payment_id')
    .select([
      sql<string>`to_char(date_trunc('month', e.created_at at time zone 'UTC'), 'YYYY-MM')`.as('month'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'charge'), 0)`.as('gross'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'charge' and e.account = 'platform'), 0)`.as('fees'),
      // both sides of refunds and disputes: a creator share the platform bears ('loss' of a payment) included
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind in ('reversal', 'loss') and (p.kind = 'refund' or e.refund_request_id is not null)), 0)`.as('refunds'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind in ('reversal', 'loss') and p.kind <> 'refund'), 0)`.as('disputes'),
      sql<string>`coalesce(sum(e.amount_cents) filter (where e.kind = 'reversal' and e.account = 'platform'), 0)`.as('fees_reversed'),
      sql<string>`coalesce(-sum(e.amount_cents) filter (where e.kind in ('payout', 'payout_returned')), 0)`.as('paid_out'),
    ])
    .where('e.created_at', '>=', from)
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .execute();
}

/** Creators whose available balance reaches `minimumCents`, with their payout account's state (payouts due). */
export function findPayoutsDue(db: DB, now: Date, minimumCents: number) {
  return db
    .selectFrom('ledger_entries as e')
    .innerJoin('profiles as pr', 'pr.id', 'e.creator_id')
    .leftJoin('payout_accounts as a', 'a.user_id', 'e.creator_id')
    .select(['pr.id', 'pr.username', 'a.status as account_status', sql<string>`sum(e.amount_cents)`.as('available')])
    .where('e.account', '=', 'creator')
    .where('e.available_at', '<=', now)
    .groupBy(['pr.id', 'pr.username', 'a.status'])
    .having(sql`sum(e.amount_cents)`, '>=', minimumCents)
    .orderBy(sql`sum(e.amount_cents)`, 'desc')
    .limit(50)
    .execute();
}

/** Payouts on their way or failed, newest first (admins). */
export function findOpenPayouts(db: DB) {
  return db
    .selectFrom('payouts as o')
    .leftJoin('profiles as pr', 'pr.id', 'o.creator_id')
    .select(['o.id', 'o.amount_cents', 'o.status', 'o.failure_reason', 'o.created_at', 'o.provider', 'pr.username'])
    .where('o.status', '<>', 'paid')
    .orderBy('o.created_at', 'desc')
    .limit(50)
    .execute();
}
