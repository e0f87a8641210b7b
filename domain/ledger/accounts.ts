import type { LedgerAccountKind } from '../../core/db/schema';

/** The currency of every account today; named on each account and line so a second one is a row, not a rewrite. */
export const LEDGER_CURRENCY = 'ZAR';

/**
 * An account of the chart (docs/payments.md, "The ledger"), named by what it is. Debit-normal (a
 * positive sum of lines): provider_cash (money a provider holds for the platform), disputes_open
 * (money a provider withheld for disputes not yet decided) and losses. Credit-normal (a negative
 * sum): platform_revenue (fees and the platform's own sales), refunds_owed (decided, not yet
 * confirmed by the provider), payouts_in_transit (sent, not yet confirmed), dispute_reserve (what
 * is set against open disputes: the shares already taken back) and each creator's pending and
 * available earnings.
 */
export type AccountRef =
  | { kind: 'platform_revenue' | 'losses' | 'refunds_owed' | 'payouts_in_transit' | 'disputes_open' | 'dispute_reserve' }
  | { kind: 'provider_cash'; provider: string }
  | { kind: 'creator_pending' | 'creator_available'; ownerId: string };

export const platformRevenue: AccountRef = { kind: 'platform_revenue' };
export const losses: AccountRef = { kind: 'losses' };
export const refundsOwed: AccountRef = { kind: 'refunds_owed' };
export const payoutsInTransit: AccountRef = { kind: 'payouts_in_transit' };
export const disputesOpen: AccountRef = { kind: 'disputes_open' };
export const disputeReserve: AccountRef = { kind: 'dispute_reserve' };
export const providerCash = (provider: string): AccountRef => ({ kind: 'provider_cash', provider });
export const creatorPending = (ownerId: string): AccountRef => ({ kind: 'creator_pending', ownerId });
export const creatorAvailable = (ownerId: string): AccountRef => ({ kind: 'creator_available', ownerId });

/**
 * The platform's accounts' unique code ('platform_revenue', 'provider_cash:stripe'); a creator's
 * have none (found by owner and kind, so nothing names a creator once the account is gone).
 */
export function accountCode(a: AccountRef): string | null {
  if (a.kind === 'provider_cash') return `provider_cash:${a.provider}`;
  if (a.kind === 'creator_pending' || a.kind === 'creator_available') return null;
  return a.kind;
}

/** A key for an account within one posting (never stored): its code, or a creator's kind and owner. */
export const accountKey = (a: AccountRef): string => accountKeyOfRow(accountRow(a));

/** The same key of a stored (or about to be stored) account row. */
export function accountKeyOfRow(row: { code: string | null; kind: LedgerAccountKind; owner_id: string | null }): string {
  return row.code ?? `${row.kind}:${row.owner_id}`;
}

export function accountRow(a: AccountRef): { code: string | null; kind: LedgerAccountKind; owner_id: string | null; provider: string | null } {
  return {
    code: accountCode(a),
    kind: a.kind,
    owner_id: 'ownerId' in a ? a.ownerId : null,
    provider: 'provider' in a ? a.provider : null,
  };
}

export const CREATOR_ACCOUNT_KINDS = ['creator_pending', 'creator_available'] as const satisfies readonly LedgerAccountKind[];

/** The account a stored row is (to reverse a journal's lines); null for a creator's whose account is gone. */
export function accountOf(row: { kind: LedgerAccountKind; owner_id: string | null; provider: string | null }): AccountRef | null {
  if (row.kind === 'provider_cash') return providerCash(row.provider!);
  if (row.kind === 'creator_pending' || row.kind === 'creator_available') {
    if (!row.owner_id) return null;
    return row.kind === 'creator_pending' ? creatorPending(row.owner_id) : creatorAvailable(row.owner_id);
  }
  return { kind: row.kind };
}
