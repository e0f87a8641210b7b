import { TRPCError } from '@trpc/server';
import type {
  AdminEarningsDto,
  EarningsChartDto,
  EarningsChartInput,
  EarningsSummaryDto,
  PayoutAccountDto,
  PayoutsPageDto,
  StatementDto,
  StatementInput,
  WithdrawInput,
} from '../../../common/earnings';
import { fromCents } from '../../../common/money';
import { BILLING_TEXTS } from '../../../common/texts';
import { PAYMENT_LABEL_TEXTS } from '../../../common/payment-texts';
import { EARNINGS_TEXTS } from '../../../common/earnings-texts';
import { readCents } from '../../../core/db/cents';
import type { AppDeps } from '../../../core/deps';
import type { JournalKind } from '../../../core/db/schema';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { capabilitiesOf } from '../../../core/payments/capabilities';
import type { PaymentProvider } from '../../../core/payments/provider';
import { creatorBalances } from '../../../domain/earnings/balances';
import { findPayoutAccount, setUpPayoutAccount } from '../../../domain/earnings/payout-accounts';
import { nextPayoutDate, requestPayout } from '../../../domain/earnings/payouts';
import { netEarningsByPeriod, periodStarts } from '../../../domain/earnings/figures';
import { earningsPolicy } from '../../../domain/earnings/policy';
import { findMismatches } from '../../../domain/earnings/reconciliation';
import {
  findOpenPayouts,
  findPayouts,
  findPayoutsDue,
  findPayoutTotals,
  findPendingByDay,
  findPlatformMonths,
  findStatementLines,
  findStatementTotals,
  PAYOUTS_PAGE_SIZE,
  STATEMENT_LINES_MAX,
} from './earnings.queries';

/** What the service needs: the provider and the clock are the app's (tests override them in createDeps). */
export type EarningsDeps = Pick<AppDeps, 'db' | 'config' | 'queues' | 'log' | 'clock' | 'payments'>;

const rand = (cents: number) => fromCents(cents);

/** A creator reads their own ledger; an admin may read any creator's (the payments lookup). Anyone else: FORBIDDEN. */
export function ledgerOwner(caller: { id: string; role: string; isCreator: boolean }, creatorId: string | undefined): string {
  if (caller.role === 'admin' && creatorId) return creatorId;
  if (!caller.isCreator) throw new TRPCError({ code: 'FORBIDDEN', message: BILLING_TEXTS.tierCreatorsOnly });
  if (!creatorId || creatorId === caller.id) return caller.id;
  if (caller.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: EARNINGS_TEXTS.otherCreatorRefused });
  return creatorId;
}

function toDto(provider: string | null | undefined, status: PayoutAccountDto['status'], configured: PaymentProvider): PayoutAccountDto {
  const name = (provider ?? configured.name) as PayoutAccountDto['provider'];
  return { status, isTest: capabilitiesOf(name)?.isTest ?? false, provider: name };
}

export async function payoutAccount(deps: EarningsDeps, userId: string): Promise<PayoutAccountDto> {
  const row = await findPayoutAccount(deps.db, userId);
  return toDto(row?.provider, row?.status ?? null, deps.payments);
}

/** The Earnings screen's header: balances, pending by day, the next payout and whether Withdraw may be pressed. */
export async function earningsSummary(deps: EarningsDeps, creatorId: string): Promise<EarningsSummaryDto> {
  const now = deps.clock.now();
  const policy = earningsPolicy(deps.config);
  const [balances, byDay, payouts, account] = await Promise.all([
    creatorBalances(deps.db, creatorId, now),
    findPendingByDay(deps.db, creatorId, now),
    findPayoutTotals(deps.db, creatorId),
    findPayoutAccount(deps.db, creatorId),
  ]);
  return {
    available: rand(balances.available),
    pending: rand(balances.pending),
    paidOut: rand(payouts.paid),
    onItsWay: rand(payouts.onItsWay),
    netEarnings: rand(balances.net),
    pendingByDay: byDay.map((d) => ({ day: d.day, amount: rand(readCents(d.cents)) })),
    nextPayoutAt: account?.status === 'enabled' ? nextPayoutDate(now, policy.payoutWeekday).toISOString() : null,
    minimum: rand(policy.payoutMinimumCents),
    feePercent: policy.feePercent,
    holdDays: policy.holdDays,
    canWithdraw: account?.status === 'enabled' && payouts.onItsWay === 0 && balances.available >= policy.payoutMinimumCents,
    account: toDto(account?.provider, account?.status ?? null, deps.payments),
  };
}

const CHART_PERIODS = 12;

/** Net earnings per week (Monday, UTC) or month, the last 12, gaps filled with zero. */
export async function earningsChart(deps: EarningsDeps, creatorId: string, input: EarningsChartInput): Promise<EarningsChartDto> {
  const starts = periodStarts(deps.clock.now(), input.by, CHART_PERIODS);
  const net = await netEarningsByPeriod(deps.db, creatorId, starts);
  return { by: input.by, points: starts.map((s, i) => ({ starts: s.toISOString().slice(0, 10), net: rand(net[i]!) })) };
}

export async function myPayouts(deps: EarningsDeps, creatorId: string, cursor: { at: string; id: string } | null): Promise<PayoutsPageDto> {
  const rows = await findPayouts(deps.db, creatorId, cursor);
  const page = rows.slice(0, PAYOUTS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id, amount: rand(readCents(r.amount_cents)), status: r.status, trigger: r.trigger, failureReason: r.failure_reason, createdAt: r.created_at, settledAt: r.settled_at,
    })),
    nextCursor: rows.length > PAYOUTS_PAGE_SIZE && last ? { at: last.cursor_at, id: last.id } : null,
  };
}

/** What a statement line is, by the journal it belongs to. */
function lineType(kind: JournalKind, payoutStatus: string | null): string {
  switch (kind) {
    case 'charge': return 'Payment';
    case 'refund': case 'refund_decided': return PAYMENT_LABEL_TEXTS.refund;
    case 'refund_not_made': return EARNINGS_TEXTS.refundNotMade;
    case 'dispute_opened': return PAYMENT_LABEL_TEXTS.chargeback;
    case 'dispute_won': return PAYMENT_LABEL_TEXTS['dispute-won'];
    case 'payout_requested': return `Payout${payoutStatus === 'failed' ? ' (failed)' : ''}`;
    case 'payout_failed': return 'Payout returned';
    case 'loss_written_off': return EARNINGS_TEXTS.writtenOff;
    default: return kind;
  }
}

/** A month's statement (UTC): the totals and its ledger rows, the same rows the chart adds up. */
export async function monthlyStatement(deps: EarningsDeps, creatorId: string, input: StatementInput): Promise<StatementDto> {
  const [year, month] = input.month.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(year, month - 1, 1));
  const end = new Date(Date.UTC(year, month, 1));
  const [totals, lines] = await Promise.all([findStatementTotals(deps.db, creatorId, start, end), findStatementLines(deps.db, creatorId, start, end)]);
  return {
    month: input.month,
    gross: rand(totals.gross),
    platformFee: rand(totals.earned - totals.gross),
    refunds: rand(totals.refunds),
    chargebacks: rand(totals.disputes),
    net: rand(totals.earned + totals.refunds + totals.disputes),
    payouts: rand(totals.payouts),
    truncated: lines.length > STATEMENT_LINES_MAX,
    lines: lines.slice(0, STATEMENT_LINES_MAX).map((l) => ({
      id: l.id,
      at: l.created_at,
      type: lineType(l.kind, l.payout_status),
      description: l.description ?? '',
      gross: fromCents(readCents(l.gross_cents)),
      net: rand(-readCents(l.amount_cents)),
    })),
  };
}

/** Withdraw: the whole available balance, once per request key (domain/earnings/payouts.ts). */
export async function withdraw(deps: EarningsDeps, creatorId: string, input: WithdrawInput): Promise<{ payoutId: string; amount: string; message: string }> {
  const policy = earningsPolicy(deps.config);
  // a refusal (no payout account, one on its way, below the minimum) is a BillingError the procedures' middleware answers
  const { payout, jobs } = await requestPayout(
    { db: deps.db, clock: deps.clock },
    { creatorId, trigger: 'request', key: `request-${input.idempotencyKey}`, minimumCents: policy.payoutMinimumCents },
  );
  await dispatchOutbox(deps, jobs);
  return { payoutId: payout.id, amount: rand(payout.amountCents), message: EARNINGS_TEXTS.withdrawQueued };
}

/** Set up payouts: the provider's account, and where to finish its details (Stripe's onboarding). */
export async function setUpPayouts(deps: EarningsDeps, user: { id: string; email: string }) {
  const base = `${deps.config.appUrl}/settings/account/payment`;
  return setUpPayoutAccount({ db: deps.db, provider: deps.payments }, user, { refreshUrl: `${base}?payouts=refresh`, returnUrl: `${base}?payouts=return` }, deps.clock.now());
}

/** The admin screen's money: the platform per month (12), payouts due and those on their way or failed. */
export async function adminEarnings(deps: EarningsDeps): Promise<AdminEarningsDto> {
  const now = deps.clock.now();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const [months, due, open, mismatches] = await Promise.all([
    findPlatformMonths(deps.db, from),
    findPayoutsDue(deps.db, now, earningsPolicy(deps.config).payoutMinimumCents),
    findOpenPayouts(deps.db),
    findMismatches(deps.db),
  ]);
  return {
    months: months.map((m) => ({
      month: m.month, gross: rand(readCents(m.gross)), fees: rand(readCents(m.fees)), refunds: rand(readCents(m.refunds)), disputes: rand(readCents(m.disputes)),
      feesReversed: rand(readCents(m.fees_reversed)), losses: rand(readCents(m.losses)), paidOut: rand(readCents(m.paid_out)),
    })),
    mismatches: mismatches.map((m) => ({
      id: m.id, day: m.day, provider: m.provider, kind: m.kind, ref: m.ref, ledger: rand(readCents(m.ledger_cents)), providerAmount: rand(readCents(m.provider_cents)),
    })),
    due: due.map((d) => ({ creatorId: d.id, username: d.username, available: rand(readCents(d.available)), accountStatus: d.account_status })),
    open: open.map((o) => ({
      id: o.id, username: o.username, amount: rand(readCents(o.amount_cents)), status: o.status as 'pending' | 'failed', failureReason: o.failure_reason, createdAt: o.created_at,
    })),
  };
}
