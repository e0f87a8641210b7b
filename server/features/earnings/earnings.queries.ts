import { sql } from 'kysely';
import { readCents } from '../../../core/db/cents';
import type { DB } from '../../../core/db/kysely';
import { creatorLines, PAYOUT_JOURNALS } from '../../../domain/earnings/balances';

const REFUND_JOURNALS = ['refund_decided', 'refund_not_made', 'refund'] as const;
const DISPUTE_JOURNALS = ['dispute_opened', 'dispute_won'] as const;
const inKinds = (kinds: readonly string[]) => sql.join(kinds);

export const PAYOUTS_PAGE_SIZE = 20;
/** Lines of a monthly statement sent to the screen and its CSV at most (the totals always cover the whole month). */
export const STATEMENT_LINES_MAX = 5_000;

/** Pending earnings by the day they become available (UTC), soonest first. */
export function findPendingByDay(db: DB, creatorId: string, now: Date) {
  return creatorLines(db, creatorId)
    .select([sql<string>`to_char(l.available_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'), sql<string>`-sum(l.amount_cents)`.as('cents')])
    .where('a.kind', '=', 'creator_pending')
    .where('l.available_at', '>', now)
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
  return { paid: readCents(row.paid), onItsWay: readCents(row.on_its_way) };
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

/**
 * A month's totals from the creator's ledger lines of that month, in one statement: gross is what
 * fans paid for the charges of the month (the provider's line of each charge journal), earned the
 * creator's part of them, refunds and disputes the creator's part taken back, payouts what left.
 */
export async function findStatementTotals(db: DB, creatorId: string, start: Date, end: Date) {
  const row = await creatorLines(db, creatorId)
    .select([
      sql<string>`coalesce(sum((select g.amount_cents from journal_lines g join ledger_accounts ga on ga.id = g.account_id
        where g.journal_id = l.journal_id and ga.kind = 'provider_cash')) filter (where l.kind = 'charge'), 0)`.as('gross'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind = 'charge'), 0)`.as('earned'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind in (${inKinds(REFUND_JOURNALS)})), 0)`.as('refunds'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind in (${inKinds(DISPUTE_JOURNALS)})), 0)`.as('disputes'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind in (${inKinds(PAYOUT_JOURNALS)})), 0)`.as('payouts'),
    ])
    .where('l.occurred_at', '>=', start)
    .where('l.occurred_at', '<', end)
    .executeTakeFirstOrThrow();
  return {
    gross: readCents(row.gross), earned: readCents(row.earned), refunds: readCents(row.refunds), disputes: readCents(row.disputes), payouts: readCents(row.payouts),
  };
}

/** A month's ledger lines of the creator (oldest first), for the statement's lines and CSV; moves between the creator's own accounts left out. */
export function findStatementLines(db: DB, creatorId: string, start: Date, end: Date) {
  return creatorLines(db, creatorId)
    .innerJoin('journal_entries as j', 'j.id', 'l.journal_id')
    .leftJoin('payments as p', 'p.id', 'j.payment_id')
    .leftJoin('refund_requests as rq', 'rq.id', 'j.refund_request_id')
    .leftJoin('payments as c', 'c.id', 'rq.payment_id')
    .leftJoin('payouts as o', 'o.id', 'j.payout_id')
    .select([
      'l.id', 'l.occurred_at as created_at', 'l.kind', 'l.amount_cents', 'l.available_at', 'p.kind as payment_kind', 'o.status as payout_status',
      sql<string | null>`coalesce(p.description, c.description)`.as('description'),
      sql<string | null>`coalesce(p.amount_cents, -rq.amount_cents)::text`.as('gross_cents'),
    ])
    .where('l.kind', '<>', 'hold_released')
    .where('l.occurred_at', '>=', start)
    .where('l.occurred_at', '<', end)
    .orderBy('l.occurred_at')
    .orderBy('l.id')
    .limit(STATEMENT_LINES_MAX + 1)
    .execute();
}

/**
 * The platform per month (admins), from the journal lines (journal_lines_month_idx): gross (what
 * fans paid), the platform's revenue from charges, refunds and disputes (what went back to fans),
 * the revenue they took back, losses, and what creators were paid out.
 */
export function findPlatformMonths(db: DB, from: Date) {
  return db
    .selectFrom('journal_lines as l')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .select([
      sql<string>`to_char(date_trunc('month', l.occurred_at at time zone 'UTC'), 'YYYY-MM')`.as('month'),
      sql<string>`coalesce(sum(l.amount_cents) filter (where l.kind = 'charge' and a.kind = 'provider_cash'), 0)`.as('gross'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind = 'charge' and a.kind = 'platform_revenue'), 0)`.as('fees'),
      sql<string>`coalesce(sum(l.amount_cents) filter (where a.kind in ('refunds_owed', 'provider_cash') and l.kind in ('refund_decided', 'refund_not_made', 'refund')), 0)`.as('refunds'),
      sql<string>`coalesce(sum(l.amount_cents) filter (where a.kind = 'provider_cash' and l.kind in (${inKinds(DISPUTE_JOURNALS)})), 0)`.as('disputes'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where a.kind = 'platform_revenue' and l.kind <> 'charge'), 0)`.as('fees_reversed'),
      sql<string>`coalesce(sum(l.amount_cents) filter (where a.kind = 'losses'), 0)`.as('losses'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where a.kind = 'payouts_in_transit' and l.kind in (${inKinds(PAYOUT_JOURNALS)})), 0)`.as('paid_out'),
    ])
    .where('l.occurred_at', '>=', from)
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .execute();
}

/** Creators whose available balance reaches `minimumCents`, with their payout account's state (payouts due). */
export function findPayoutsDue(db: DB, now: Date, minimumCents: number) {
  return db
    .selectFrom('journal_lines as l')
    .innerJoin('ledger_accounts as la', 'la.id', 'l.account_id')
    .innerJoin('profiles as pr', 'pr.id', 'la.owner_id')
    .leftJoin('payout_accounts as a', 'a.user_id', 'la.owner_id')
    .select(['pr.id', 'pr.username', 'a.status as account_status', sql<string>`-sum(l.amount_cents)`.as('available')])
    .where((eb) => eb.or([eb('la.kind', '=', 'creator_available'), eb.and([eb('la.kind', '=', 'creator_pending'), eb('l.available_at', '<=', now)])]))
    .groupBy(['pr.id', 'pr.username', 'a.status'])
    .having(sql`-sum(l.amount_cents)`, '>=', minimumCents)
    .orderBy(sql`-sum(l.amount_cents)`, 'desc')
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
