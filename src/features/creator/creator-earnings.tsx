import { TrendingUp } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { formatRand } from '../../../common/format';
import { LoadError } from '../../components/load-states';
import { Skeleton } from '../../components/ui/skeleton';
import { trpc } from '../../lib/trpc';

/** recharts is large: it is fetched only when a creator opens this tab, never with the app. */
const WeeklyRevenueChart = lazy(() => import('./weekly-revenue-chart').then((m) => ({ default: m.WeeklyRevenueChart })));

const WEEK_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Earnings from the ledger (issue 11 item 8; one definition with the Earnings screen since issue
 * 47 item 4): this month, last month, and net earnings per week for the last 12 weeks.
 */
export function CreatorEarnings() {
  const earnings = trpc.creatorStats.earnings.useQuery();
  const data = earnings.data;
  const weeks = data?.weekly.map((w) => ({ label: WEEK_LABEL.format(new Date(w.weekStart)), total: Number(w.total) })) ?? [];

  return (
    <section aria-labelledby="earnings-heading" className="flex flex-col gap-4">
      <h2 id="earnings-heading" className="text-xl font-semibold tracking-tight">
        Earnings
      </h2>
      {earnings.isError && !data ? (
        <LoadError compact message="Earnings could not be loaded." onRetry={() => void earnings.refetch()} />
      ) : (
        <>
          <p className="-mt-2 text-sm text-muted">Your earnings after the platform&apos;s fee, less refunds and chargebacks, by date of payment: the figures of Earnings.</p>
          <dl className="grid grid-cols-2 gap-3">
            <Figure label="This month" value={data ? formatRand(data.thisMonth) : null} />
            <Figure label="Last month" value={data ? formatRand(data.lastMonth) : null} />
          </dl>
          <figure className="rounded-card border border-border bg-surface p-4 md:p-5">
            <figcaption className="mb-3 flex items-center gap-2 text-sm font-medium text-foreground">
              <TrendingUp aria-hidden="true" className="size-4 text-violet-300" />
              Revenue per week, last 12 weeks
            </figcaption>
            {data ? (
              <>
                {weeks.every((w) => w.total === 0) ? (
                  // no empty chart with an R0-R4 axis (issue 47 item 5): a line saying so
                  <p className="flex h-28 items-center justify-center rounded-lg border border-dashed border-border text-sm text-muted">No revenue in the last 12 weeks yet.</p>
                ) : (
                  <Suspense fallback={<Skeleton className="h-56 w-full" />}>
                    <WeeklyRevenueChart weeks={weeks} />
                  </Suspense>
                )}
                {/* the chart's figures for screen readers */}
                <table className="sr-only">
                  <caption>Revenue per week</caption>
                  <thead>
                    <tr>
                      <th scope="col">Week of</th>
                      <th scope="col">Revenue</th>
                    </tr>
                  </thead>
                  <tbody>
                    {weeks.map((w) => (
                      <tr key={w.label}>
                        <td>{w.label}</td>
                        <td>{formatRand(w.total)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            ) : (
              <Skeleton className="h-56 w-full" />
            )}
          </figure>
        </>
      )}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="rounded-card border border-border bg-surface p-4 md:p-5">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight text-foreground tabular-nums" data-testid={`earnings-${label.toLowerCase().replace(' ', '-')}`}>
        {value ?? <Skeleton className="h-8 w-24" />}
      </dd>
    </div>
  );
}
