import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * A creator's balances from their ledger rows, in one statement (ledger_entries_creator_available_idx):
 * available (rows whose time has come: earnings past the hold, reversals, payouts and their
 * returns), pending (earnings still in the hold, less refunds of them), what the ledger has paid
 * out (payouts less payouts returned, those on their way included) and net earnings (charges less
 * reversals). available + pending + paid out = net earnings, by construction and by test.
 */
export async function creatorBalances(db: DB, creatorId: string, now: Date) {
  const row = await db
    .selectFrom('ledger_entries')
    .select([
      sql<string>`coalesce(sum(amount_cents) filter (where available_at <= ${now}), 0)`.as('available'),
      sql<string>`coalesce(sum(amount_cents) filter (where available_at > ${now}), 0)`.as('pending'),
      sql<string>`coalesce(-sum(amount_cents) filter (where kind in ('payout', 'payout_returned')), 0)`.as('paid_out'),
      sql<string>`coalesce(sum(amount_cents) filter (where kind in ('charge', 'reversal')), 0)`.as('net'),
    ])
    .where('account', '=', 'creator')
    .where('creator_id', '=', creatorId)
    .executeTakeFirstOrThrow();
  return { available: Number(row.available), pending: Number(row.pending), paidOut: Number(row.paid_out), net: Number(row.net) };
}

/** What the creator may be paid now (cents; below zero after a chargeback). */
export async function availableCents(db: DB, creatorId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(amount_cents), 0)`.as('available'))
    .where('account', '=', 'creator')
    .where('creator_id', '=', creatorId)
    .where('available_at', '<=', now)
    .executeTakeFirstOrThrow();
  return Number(row.available);
}
