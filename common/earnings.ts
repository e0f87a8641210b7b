import { z } from 'zod';
import { cursorId, cursorInstant } from './cursor-schema';
import { IdempotencyKey } from './billing-schemas';

/**
 * The Earnings screen's API (issue 26, docs/payments.md "Earnings and payouts"). Amounts are rand
 * strings ('240.00', '-80.00') made from the ledger's whole cents.
 */

const uuid = z.string().uuid();

/** Admins may read a creator's earnings by id (the payments lookup); a creator reads only their own. */
export const EarningsSummaryInput = z.object({ creatorId: uuid.optional() }).optional();
export type EarningsSummaryInput = z.output<typeof EarningsSummaryInput>;

export const EarningsChartInput = z.object({ by: z.enum(['week', 'month']).default('week') });
export type EarningsChartInput = z.output<typeof EarningsChartInput>;

/** the payouts list's keyset cursor: an instant that exists and an id, else 'Invalid cursor' (common/cursor-schema.ts) */
export const PayoutsInput = z.object({ cursor: z.object({ at: cursorInstant, id: cursorId }).nullish() });
export type PayoutsInput = z.output<typeof PayoutsInput>;

export const StatementInput = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month as YYYY-MM') });
export type StatementInput = z.output<typeof StatementInput>;

export const WithdrawInput = z.object({ idempotencyKey: IdempotencyKey });
export type WithdrawInput = z.output<typeof WithdrawInput>;

export type PayoutAccountStatusDto = 'details_needed' | 'pending' | 'enabled';

export interface PayoutAccountDto {
  /** null: none set up yet */
  status: PayoutAccountStatusDto | null;
  /** the built-in provider's test account: no money moves */
  isTest: boolean;
  provider: 'builtin' | 'stripe';
}

export interface EarningsSummaryDto {
  available: string;
  pending: string;
  /** payouts paid */
  paidOut: string;
  /** a payout requested and not yet paid */
  onItsWay: string;
  /** charges less fees, refunds and chargebacks, ever */
  netEarnings: string;
  /** when each pending amount becomes available (UTC day, 'YYYY-MM-DD') */
  pendingByDay: { day: string; amount: string }[];
  /**
   * the next automatic payout's day (ISO), paid when at least `minimum` is available; null while
   * the creator has no payout account with payouts enabled (no payout is coming: issue 47 item 5)
   */
  nextPayoutAt: string | null;
  minimum: string;
  feePercent: number;
  holdDays: number;
  canWithdraw: boolean;
  account: PayoutAccountDto;
}

export interface EarningsChartDto {
  by: 'week' | 'month';
  points: { starts: string; net: string }[];
}

export interface PayoutDto {
  id: string;
  amount: string;
  status: 'pending' | 'paid' | 'failed';
  trigger: 'scheduled' | 'request' | 'deletion';
  failureReason: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

export interface PayoutsPageDto {
  items: PayoutDto[];
  nextCursor: { at: string; id: string } | null;
}

export interface StatementLineDto {
  id: string;
  at: Date;
  /** 'Payment', 'Refund', 'Chargeback', 'Dispute won', 'Payout', 'Payout returned' */
  type: string;
  description: string;
  /** what the fan paid (charges and reversals), or null */
  gross: string | null;
  /** the creator's part */
  net: string;
}

export interface StatementDto {
  month: string;
  gross: string;
  platformFee: string;
  refunds: string;
  chargebacks: string;
  net: string;
  payouts: string;
  lines: StatementLineDto[];
  /** more lines than the screen takes (the totals still cover the whole month) */
  truncated: boolean;
}

export interface AdminEarningsDto {
  months: { month: string; gross: string; fees: string; refunds: string; disputes: string; feesReversed: string; losses: string; paidOut: string }[];
  /** what the daily reconciliation found that does not match (issue 45), newest day first */
  mismatches: { id: string; day: string; provider: string; kind: string; ref: string; ledger: string; providerAmount: string }[];
  due: { creatorId: string; username: string; available: string; accountStatus: PayoutAccountStatusDto | null }[];
  open: { id: string; username: string | null; amount: string; status: 'pending' | 'failed'; failureReason: string | null; createdAt: Date }[];
}

/** The statement as CSV (RFC 4180: quoted fields, CRLF), the same rows the screen shows. */
export function statementCsv(s: StatementDto): string {
  const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const rows = [
    ['Statement', s.month],
    ['Gross', s.gross],
    ['Platform fee', s.platformFee],
    ['Refunds', s.refunds],
    ['Chargebacks', s.chargebacks],
    ['Net', s.net],
    ['Payouts', s.payouts],
    [],
    ['Date', 'Type', 'Description', 'Gross', 'Net'],
    ...s.lines.map((l) => [new Date(l.at).toISOString(), l.type, l.description, l.gross ?? '', l.net]),
  ];
  return rows.map((r) => r.map(q).join(',')).join('\r\n') + '\r\n';
}
