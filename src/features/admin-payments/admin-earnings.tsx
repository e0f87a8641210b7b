import { formatRand } from '../../../common/format';
import { Skeleton } from '../../components/ui/skeleton';
import { formatCalendarDate } from '../../lib/format';
import { trpc } from '../../lib/trpc';

/**
 * The platform's money on /admin/payments (issue 26 §5), every figure a sum of ledger rows: per
 * month gross, fees (less fees given back with refunds and disputes), refunds and disputes (both
 * sides), and payouts; creators whose available balance has reached the minimum (payouts due);
 * payouts on their way and failed, with the provider's reason.
 */
export function AdminEarnings() {
  const overview = trpc.earnings.admin.useQuery();
  const data = overview.data;
  if (!data) return overview.isError ? null : <Skeleton className="h-40 w-full rounded-card" />;
  return (
    <section aria-labelledby="platform-money" className="flex flex-col gap-4">
      <h2 id="platform-money" className="text-xl font-semibold tracking-tight">
        Fees, refunds and payouts
      </h2>
      {/* on a phone the table scrolls sideways inside its frame (issue 47: it looked clipped) */}
      <p className="-mt-2 text-xs text-subtle md:hidden">Swipe the table sideways for every column.</p>
      <div tabIndex={0} role="region" aria-label="Fees, refunds and payouts per month" className="overflow-x-auto rounded-card border border-border bg-surface focus-visible:outline-2 focus-visible:outline-accent">
        <table className="w-full min-w-[36rem] text-sm whitespace-nowrap">
          <caption className="sr-only">The platform per month</caption>
          <thead className="text-left text-muted">
            <tr>
              {['Month', 'Gross', 'Fees', 'Fees reversed', 'Refunds', 'Disputes', 'Losses', 'Paid out'].map((h) => (
                <th key={h} scope="col" className="px-2.5 py-2 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.months.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-3 py-3 text-muted">
                  No payments yet.
                </td>
              </tr>
            ) : (
              data.months.map((m) => (
                <tr key={m.month} className="border-t border-border tabular-nums" data-testid="admin-month">
                  <th scope="row" className="px-2.5 py-2 text-left font-medium">
                    {m.month}
                  </th>
                  {[m.gross, m.fees, m.feesReversed, m.refunds, m.disputes, m.losses, m.paidOut].map((v, i) => (
                    <td key={i} className="px-2.5 py-2">
                      {formatRand(v)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="rounded-card border border-border bg-surface p-4">
          <h3 className="text-sm font-medium">Payouts due</h3>
          {data.due.length === 0 ? (
            <p className="mt-2 text-sm text-muted">No creator has reached the minimum.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-1 text-sm">
              {data.due.map((d) => (
                <li key={d.creatorId} className="flex justify-between gap-2">
                  <span>@{d.username}</span>
                  <span className="tabular-nums">
                    {formatRand(d.available)} <span className="text-muted">{d.accountStatus === 'enabled' ? '' : '· no payout account'}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="rounded-card border border-border bg-surface p-4">
          <h3 className="text-sm font-medium">Payouts on their way or failed</h3>
          {data.open.length === 0 ? (
            <p className="mt-2 text-sm text-muted">None.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-2 text-sm">
              {data.open.map((o) => (
                <li key={o.id} className="flex flex-col" data-testid="admin-open-payout">
                  <span className="flex justify-between gap-2">
                    <span>
                      @{o.username ?? 'deleted'} · {formatCalendarDate(o.createdAt)}
                    </span>
                    <span className="tabular-nums">
                      {formatRand(o.amount)} · {o.status === 'failed' ? 'Failed' : 'On its way'}
                    </span>
                  </span>
                  {o.failureReason ? <span className="text-red-200">{o.failureReason}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <div className="rounded-card border border-border bg-surface p-4" data-testid="reconciliation">
        <h3 className="text-sm font-medium">Reconciliation</h3>
        <p className="mt-1 text-xs text-muted">The ledger checked daily against payments, payouts and each provider&apos;s own records.</p>
        {data.mismatches.length === 0 ? (
          <p className="mt-2 text-sm text-muted">No mismatches.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {data.mismatches.map((m) => (
              <li key={m.id} className="flex flex-col gap-0.5 break-all" data-testid="reconciliation-mismatch">
                <span>
                  {m.day} · {m.provider} · {MISMATCH_LABEL[m.kind.split(':')[0]!] ?? m.kind}
                  {m.kind.includes(':') ? ` (${m.kind.split(':')[1]})` : ''}
                </span>
                <span className="text-muted tabular-nums">
                  Ledger {formatRand(m.ledger)} · {m.kind.startsWith('provider_total') ? 'provider' : 'record'} {formatRand(m.providerAmount)} · {m.ref}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

const MISMATCH_LABEL: Record<string, string> = {
  payment_not_in_ledger: 'Payment not in the ledger as paid',
  payout_not_in_ledger: 'Payout not in the ledger as paid',
  ledger_without_record: 'Ledger money with no payment or payout',
  provider_total: "Provider's total differs",
};
