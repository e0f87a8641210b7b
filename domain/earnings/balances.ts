import { sql } from 'kysely';
import { readCents } from '../../core/db/cents';
import type { DB } from '../../core/db/kysely';
import type { JournalKind } from '../../core/db/schema';
import { CREATOR_ACCOUNT_KINDS } from '../ledger/accounts';

/**
 * What counts as a creator's earnings (one definition, docs/payments.md "What a creator sees"):
 * the creator's lines of charges, refunds and disputes, whether decided, made or undone. Payouts,
 * the release of a hold (a move between the creator's own accounts) and a write-off are not.
 */
export const EARNING_JOURNALS = ['charge', 'refund_decided', 'refund_not_made', 'refund', 'dispute_opened', 'dispute_won'] as const satisfies readonly JournalKind[];
export const PAYOUT_JOURNALS = ['payout_requested', 'payout_failed'] as const satisfies readonly JournalKind[];

/** The lines of a creator's two accounts (pending and available). */
export function creatorLines(db: DB, creatorId: string) {
  return db
    .selectFrom('journal_lines as l')
    .innerJoin('ledger_accounts as a', 'a.id', 'l.account_id')
    .where('a.owner_id', '=', creatorId)
    .where('a.kind', 'in', CREATOR_ACCOUNT_KINDS);
}

/**
 * A creator's totals, in one statement: the sums of their accounts' lines from the month totals
 * (ledger_month_totals, kept with the lines by the database: a few rows per month, not every line),
 * and the one part that depends on the time of day from the lines themselves, the pending lines
 * still in their hold (by `available_at`, journal_lines_available_idx: the last hold's days only).
 * Debit positive, as stored (the callers negate by subtracting from zero: no -0 for an empty account).
 */
async function creatorTotals(db: DB, creatorId: string, now: Date) {
  const { rows } = await sql<{ all: string; pending_all: string; payouts: string; earned: string; held: string }>`
    with acc as (
      select id, kind from ledger_accounts where owner_id = ${creatorId} and kind in (${sql.join(CREATOR_ACCOUNT_KINDS)})
    ), totals as (
      select coalesce(sum(t.cents), 0) as all,
             coalesce(sum(t.cents) filter (where a.kind = 'creator_pending'), 0) as pending_all,
             coalesce(sum(t.cents) filter (where t.kind in (${sql.join(PAYOUT_JOURNALS)})), 0) as payouts,
             coalesce(sum(t.cents) filter (where t.kind in (${sql.join(EARNING_JOURNALS)})), 0) as earned
      from ledger_month_totals t join acc a on a.id = t.account_id
    )
    select totals.*,
      coalesce((select sum(l.amount_cents) from journal_lines l join acc a on a.id = l.account_id and a.kind = 'creator_pending'
                where l.available_at > ${now}), 0) as held
    from totals`.execute(db);
  const row = rows[0]!;
  return { all: readCents(row.all), pendingAll: readCents(row.pending_all), payouts: readCents(row.payouts), earned: readCents(row.earned), held: readCents(row.held) };
}

/**
 * A creator's balances in one statement: available (the available account, and pending earnings
 * whose hold has ended but is not released yet), pending (earnings still in the hold, less refunds
 * of them), what has been paid out (payouts less payouts returned, those on their way included) and
 * net earnings. A creator's accounts are credit-normal: what they are owed is the negated sum of
 * their lines.
 */
export async function creatorBalances(db: DB, creatorId: string, now: Date) {
  const t = await creatorTotals(db, creatorId, now);
  return { available: t.held - t.all, pending: 0 - t.held, paidOut: t.payouts, net: 0 - t.earned };
}

/** What the creator may be paid now (cents; below zero after a chargeback). */
export async function availableCents(db: DB, creatorId: string, now: Date): Promise<number> {
  return (await creatorBalances(db, creatorId, now)).available;
}

/** Everything the creator is owed, held or not (cents; below zero when reversals exceed earnings). */
export async function creatorBalanceCents(db: DB, creatorId: string): Promise<number> {
  return 0 - (await creatorTotals(db, creatorId, new Date())).all;
}

/** The creator's earnings whose hold has ended, still on the pending account (cents). */
export async function maturedPendingCents(db: DB, creatorId: string, now: Date): Promise<number> {
  const t = await creatorTotals(db, creatorId, now);
  return t.held - t.pendingAll;
}
