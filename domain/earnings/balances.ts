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

/** Available now: the available account, and pending lines whose time has come but whose hold is not released yet. */
const availableNow = (now: Date) => sql`a.kind = 'creator_available' or l.available_at <= ${now}`;

/**
 * A creator's balances from their ledger lines, in one statement: available (see above), pending
 * (earnings still in the hold, less refunds of them), what has been paid out (payouts less payouts
 * returned, those on their way included) and net earnings. A creator's accounts are credit-normal:
 * what they are owed is the negated sum of their lines.
 */
export async function creatorBalances(db: DB, creatorId: string, now: Date) {
  const row = await creatorLines(db, creatorId)
    .select([
      sql<string>`coalesce(-sum(l.amount_cents) filter (where ${availableNow(now)}), 0)`.as('available'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where a.kind = 'creator_pending' and l.available_at > ${now}), 0)`.as('pending'),
      sql<string>`coalesce(sum(l.amount_cents) filter (where l.kind in (${sql.join(PAYOUT_JOURNALS)})), 0)`.as('paid_out'),
      sql<string>`coalesce(-sum(l.amount_cents) filter (where l.kind in (${sql.join(EARNING_JOURNALS)})), 0)`.as('net'),
    ])
    .executeTakeFirstOrThrow();
  return { available: readCents(row.available), pending: readCents(row.pending), paidOut: readCents(row.paid_out), net: readCents(row.net) };
}

/** What the creator may be paid now (cents; below zero after a chargeback). */
export async function availableCents(db: DB, creatorId: string, now: Date): Promise<number> {
  const row = await creatorLines(db, creatorId)
    .select(sql<string>`coalesce(-sum(l.amount_cents) filter (where ${availableNow(now)}), 0)`.as('available'))
    .executeTakeFirstOrThrow();
  return readCents(row.available);
}

/** Everything the creator is owed, held or not (cents; below zero when reversals exceed earnings). */
export async function creatorBalanceCents(db: DB, creatorId: string): Promise<number> {
  const row = await creatorLines(db, creatorId).select(sql<string>`coalesce(-sum(l.amount_cents), 0)`.as('balance')).executeTakeFirstOrThrow();
  return readCents(row.balance);
}

/** The creator's earnings whose hold has ended, still on the pending account (cents). */
export async function maturedPendingCents(db: DB, creatorId: string, now: Date): Promise<number> {
  const row = await creatorLines(db, creatorId)
    .select(sql<string>`coalesce(-sum(l.amount_cents), 0)`.as('matured'))
    .where('a.kind', '=', 'creator_pending')
    .where('l.available_at', '<=', now)
    .executeTakeFirstOrThrow();
  return readCents(row.matured);
}
