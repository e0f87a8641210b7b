import { Link } from '@tanstack/react-router';
import { ArrowDownToLine, CalendarClock, Landmark, TrendingUp, Wallet } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { statementCsv, type EarningsSummaryDto, type PayoutDto } from '../../../common/earnings';
import { formatRand } from '../../../common/format';
import { EARNINGS_TEXTS } from '../../../common/earnings-texts';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-states';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { formatCalendarDate } from '../../lib/format';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/** recharts is large: fetched only when a creator opens this tab. */
const EarningsChart = lazy(() => import('./weekly-revenue-chart').then((m) => ({ default: m.WeeklyRevenueChart })));

const DAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const PERIOD = {
  week: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
};
const STATUS_LABEL: Record<PayoutDto['status'], string> = { pending: 'On its way', paid: 'Paid', failed: 'Failed' };
const STATUS_CLASS: Record<PayoutDto['status'], string> = {
  pending: 'bg-amber-500/15 text-amber-200',
  paid: 'bg-emerald-500/15 text-emerald-200',
  failed: 'bg-red-500/15 text-red-200',
};

/**
 * /create?tab=earnings (issue 26 §4): the creator's balances (available, pending with the day
 * each part becomes available, paid out, the next payout), Withdraw (asks first), net earnings per
 * week or month, payouts with their status, and a monthly statement on screen and as CSV. Every
 * figure is read from the same ledger rows (server/features/earnings).
 */
export function EarningsScreen() {
  const summary = trpc.earnings.summary.useQuery(undefined);
  const data = summary.data;
  if (summary.isError && !data) return <LoadError compact message="Earnings could not be loaded." onRetry={() => void summary.refetch()} />;
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="balance-heading" className="flex flex-col gap-4">
        <h2 id="balance-heading" className="text-xl font-semibold tracking-tight">
          {EARNINGS_TEXTS.tab}
        </h2>
        {data ? <p className="text-sm text-muted">{`${EARNINGS_TEXTS.feeNote(data.feePercent)} ${EARNINGS_TEXTS.holdNote(data.holdDays)}`}</p> : null}
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Figure id="available" label={EARNINGS_TEXTS.available} value={data ? formatRand(data.available) : null} negative={data ? data.available.startsWith('-') : false} />
          <Figure id="pending" label={EARNINGS_TEXTS.pending} value={data ? formatRand(data.pending) : null} />
          <Figure id="paid-out" label={EARNINGS_TEXTS.paidOut} value={data ? formatRand(data.paidOut) : null} />
          <Figure
            id="next-payout"
            label={EARNINGS_TEXTS.nextPayout}
            value={data ? (data.nextPayoutAt ? DAY.format(new Date(data.nextPayoutAt)) : EARNINGS_TEXTS.noNextPayout) : null}
            note={
              data && !data.nextPayoutAt ? (
                <>
                  {EARNINGS_TEXTS.noNextPayoutWhy}{' '}
                  <Link to="/settings/account/payment" className="text-violet-300 underline underline-offset-2 hover:text-violet-200">
                    {EARNINGS_TEXTS.setUpPayouts}
                  </Link>
                </>
              ) : null
            }
          />
        </dl>
        {data ? <BalanceActions summary={data} /> : <Skeleton className="h-11 w-40" />}
        {data && data.pendingByDay.length > 0 ? (
          <div className="rounded-card border border-border bg-surface p-4">
            <h3 className="flex items-center gap-2 text-sm font-medium">
              <CalendarClock aria-hidden="true" className="size-4 text-violet-300" />
              Pending, by the day it becomes available
            </h3>
            <ul className="mt-2 flex flex-col divide-y divide-border" aria-label="Pending earnings">
              {data.pendingByDay.map((d) => (
                <li key={d.day} className="flex justify-between py-2 text-sm" data-testid="pending-day">
                  <span className="text-muted">{DAY.format(new Date(`${d.day}T00:00:00Z`))}</span>
                  <span className="tabular-nums">{formatRand(d.amount)}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <NetChart />
      <Payouts />
      <Statement />
    </div>
  );
}

function Figure({ id, label, value, negative = false, note }: { id: string; label: string; value: string | null; negative?: boolean; note?: ReactNode }) {
  return (
    <div className="rounded-card border border-border bg-surface p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className={`mt-1 text-xl font-bold tracking-tight tabular-nums md:text-2xl ${negative ? 'text-red-300' : 'text-foreground'}`} data-testid={`earnings-${id}`}>
        {value ?? <Skeleton className="h-8 w-24" />}
      </dd>
      {note ? (
        <dd className="mt-1 text-sm text-muted" data-testid={`earnings-${id}-note`}>
          {note}
        </dd>
      ) : null}
    </div>
  );
}

function BalanceActions({ summary }: { summary: EarningsSummaryDto }) {
  const utils = trpc.useUtils();
  const [key, setKey] = useState(() => crypto.randomUUID());
  const withdraw = trpc.earnings.withdraw.useMutation();
  const account = summary.account;
  const reason =
    account.status !== 'enabled' ? EARNINGS_TEXTS.noPayoutAccount
    : summary.onItsWay !== '0.00' ? EARNINGS_TEXTS.payoutInFlight
    : !summary.canWithdraw ? EARNINGS_TEXTS.belowMinimum(formatRand(summary.minimum))
    : null;
  const run = async () => {
    try {
      const result = await withdraw.mutateAsync({ idempotencyKey: key });
      notify.success({ title: result.message });
    } catch (error) {
      if (errorCode(error) !== 'TOO_MANY_REQUESTS') notify.error({ title: 'Error', description: error instanceof Error ? error.message : 'Please try again.' });
    } finally {
      // a new request next time; a retry of this one (dropped answer) would reuse the key
      setKey(crypto.randomUUID());
      await utils.earnings.invalidate();
    }
  };
  return (
    <div className="flex flex-col gap-3">
      {summary.available.startsWith('-') ? <p className="rounded-card border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-100">{EARNINGS_TEXTS.negativeBalance}</p> : null}
      {summary.onItsWay !== '0.00' ? <p className="text-sm text-muted" data-testid="on-its-way">{`${EARNINGS_TEXTS.onItsWay}: ${formatRand(summary.onItsWay)}`}</p> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <ConfirmDialog
          title={EARNINGS_TEXTS.withdrawConfirmTitle}
          description={`${formatRand(summary.available)} goes to your payout account${account.isTest ? ' (a test account: no money moves)' : ''}.`}
          confirmLabel={`${EARNINGS_TEXTS.withdraw} ${formatRand(summary.available)}`}
          onConfirm={run}
          trigger={
            <Button disabled={reason !== null} aria-describedby={reason ? 'withdraw-why' : undefined} className="sm:w-auto">
              <ArrowDownToLine aria-hidden="true" className="size-4" />
              {EARNINGS_TEXTS.withdraw}
            </Button>
          }
        />
        <p className="text-sm text-muted">
          <Landmark aria-hidden="true" className="mr-1 inline size-4" />
          {account.status ? `${EARNINGS_TEXTS.payoutAccountTitle}: ${EARNINGS_TEXTS.accountStatus[account.status]}${account.isTest ? ' (test account)' : ''}. ` : null}
          <Link to="/settings/account/payment" className="text-violet-300 underline underline-offset-2">
            {account.status ? 'Payout account' : EARNINGS_TEXTS.setUpPayouts}
          </Link>
        </p>
      </div>
      {reason ? (
        <p id="withdraw-why" className="text-sm text-muted">
          {reason}
        </p>
      ) : null}
    </div>
  );
}

function NetChart() {
  const [by, setBy] = useState<'week' | 'month'>('week');
  const chart = trpc.earnings.chart.useQuery({ by });
  const points = chart.data?.points.map((p) => ({ label: PERIOD[by].format(new Date(`${p.starts}T00:00:00Z`)), total: Number(p.net) })) ?? [];
  return (
    <section aria-labelledby="chart-heading" className="rounded-card border border-border bg-surface p-4 md:p-5">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id="chart-heading" className="flex items-center gap-2 text-sm font-medium">
          <TrendingUp aria-hidden="true" className="size-4 text-violet-300" />
          Net earnings per {by}
        </h2>
        <div role="group" aria-label="Chart period" className="flex gap-1">
          {(['week', 'month'] as const).map((unit) => (
            <Button key={unit} size="sm" variant={by === unit ? 'primary' : 'secondary'} aria-pressed={by === unit} onClick={() => setBy(unit)}>
              {unit === 'week' ? 'Weekly' : 'Monthly'}
            </Button>
          ))}
        </div>
      </div>
      {chart.data && chart.data.points.every((p) => Number(p.net) === 0) ? (
        // nothing earned in the periods shown: a line saying so, not an empty chart with an R0-R4 axis
        <EmptyState icon={TrendingUp} className="py-10">
          {EARNINGS_TEXTS.chartEmpty(by)}
        </EmptyState>
      ) : chart.data ? (
        <>
          <Suspense fallback={<Skeleton className="h-56 w-full" />}>
            <EarningsChart weeks={points} seriesName="Net earnings" periodPrefix={by === 'week' ? 'Week of ' : ''} />
          </Suspense>
          <table className="sr-only">
            <caption>Net earnings per {by}</caption>
            <thead>
              <tr>
                <th scope="col">{by === 'week' ? 'Week of' : 'Month'}</th>
                <th scope="col">Net earnings</th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.label}>
                  <td>{p.label}</td>
                  <td>{formatRand(p.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <Skeleton className="h-56 w-full" />
      )}
    </section>
  );
}

function Payouts() {
  const payouts = trpc.earnings.payouts.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor ?? undefined, initialCursor: null });
  const items = payouts.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="payouts-heading" className="flex flex-col gap-3">
      <h2 id="payouts-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
        <Wallet aria-hidden="true" className="size-5 text-violet-300" />
        Payouts
      </h2>
      {!payouts.data ? (
        <Skeleton className="h-16 w-full" />
      ) : items.length === 0 ? (
        <p className="text-sm text-muted">No payouts yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border rounded-card border border-border bg-surface" aria-label="Payouts">
          {items.map((p) => (
            <li key={p.id} className="flex flex-col gap-1 p-3 text-sm" data-testid="payout-row">
              <div className="flex items-center justify-between gap-2">
                <span className="tabular-nums font-medium">{formatRand(p.amount)}</span>
                <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[p.status]}`} data-testid="payout-status">
                  {STATUS_LABEL[p.status]}
                </span>
              </div>
              <span className="text-muted">
                {formatCalendarDate(p.createdAt)} · {p.trigger === 'request' ? 'Withdraw' : p.trigger === 'scheduled' ? 'Weekly payout' : 'Account deletion'}
              </span>
              {p.failureReason ? <span className="text-red-200">{`${EARNINGS_TEXTS.payoutFailed} ${p.failureReason}`}</span> : null}
            </li>
          ))}
        </ul>
      )}
      {payouts.hasNextPage ? (
        <Button variant="secondary" className="self-start" onClick={() => void payouts.fetchNextPage()} disabled={payouts.isFetchingNextPage}>
          Show more
        </Button>
      ) : null}
    </section>
  );
}

function Statement() {
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7));
  const statement = trpc.earnings.statement.useQuery({ month }, { enabled: /^\d{4}-\d{2}$/.test(month) });
  const s = statement.data;
  const download = () => {
    if (!s) return;
    const url = URL.createObjectURL(new Blob([statementCsv(s)], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `statement-${s.month}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };
  const rows: [string, string | undefined][] = [
    ['Gross (fans paid)', s?.gross],
    ['Platform fee', s?.platformFee],
    ['Refunds', s?.refunds],
    ['Chargebacks', s?.chargebacks],
    ['Net earnings', s?.net],
    ['Payouts', s?.payouts],
  ];
  return (
    <section aria-labelledby="statement-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <h2 id="statement-heading" className="text-xl font-semibold tracking-tight">
          {EARNINGS_TEXTS.statementTitle}
        </h2>
        <div className="flex items-end gap-2">
          <label className="flex flex-col gap-1 text-sm text-muted">
            Month
            <input
              type="month"
              value={month}
              onChange={(e) => setMonth(e.target.value)}
              className="h-10 rounded-xl border border-border bg-surface px-3 text-foreground"
            />
          </label>
          <Button variant="secondary" onClick={download} disabled={!s}>
            {EARNINGS_TEXTS.downloadCsv}
          </Button>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-card border border-border bg-surface p-4 text-sm md:grid-cols-3" data-testid="statement">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-muted">{label}</dt>
            <dd className="tabular-nums font-medium">{value !== undefined ? formatRand(value) : <Skeleton className="h-5 w-16" />}</dd>
          </div>
        ))}
      </dl>
      {s?.truncated ? <p className="text-sm text-muted">This month has more lines than are shown; the totals cover all of them.</p> : null}
    </section>
  );
}
