import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { formatCalendarDate, isoString } from '../../lib/format';
import { trpc } from '../../lib/trpc';

/**
 * The creator's active subscribers (issue 11 item 8): who, on which tier, since when, and when it
 * renews (or ends, when they cancelled). Keyset pages of 20 from the server, 'Load more' for the next.
 */
export function CreatorSubscribers() {
  const list = trpc.creatorStats.subscribers.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="subscribers-heading" className="flex flex-col gap-4">
      <h2 id="subscribers-heading" className="text-xl font-semibold tracking-tight">
        Subscribers
      </h2>
      {list.isError && !list.data ? (
        <LoadError compact message="Subscribers could not be loaded." onRetry={() => void list.refetch()} />
      ) : !list.data ? (
        <LoadingPlaceholder label="Loading subscribers" rows={3} rowClassName="h-14 w-full" className="gap-2" />
      ) : rows.length === 0 ? (
        <EmptyState icon={Users}>No subscribers yet.</EmptyState>
      ) : (
        <>
          <ul aria-label="Subscribers" className="divide-y divide-border rounded-card border border-border bg-surface">
            {rows.map((row) => {
              const name = row.fan.displayName || row.fan.username;
              return (
                <li key={row.subscriptionId} className="flex items-center gap-3 px-4 py-3">
                  <Avatar src={row.fan.avatarUrl} name={name} size="sm" />
                  <div className="min-w-0 flex-1 sm:flex sm:items-center sm:gap-3">
                    <div className="min-w-0 flex-1">
                      <Link to="/$username" params={{ username: row.fan.username }} className="block truncate font-medium text-foreground underline-offset-4 hover:underline">
                        {name}
                      </Link>
                      <p className="truncate text-xs text-subtle">@{row.fan.username}</p>
                    </div>
                    <div className="mt-1 text-xs text-muted sm:mt-0 sm:text-right sm:text-sm">
                      <p className="font-medium text-foreground">{row.tierName}</p>
                      <p>
                        since <time dateTime={isoString(row.since)}>{formatCalendarDate(row.since)}</time> · {row.cancelAtPeriodEnd ? 'ends' : 'renews'}{' '}
                        <time dateTime={isoString(row.renewsAt)}>{formatCalendarDate(row.renewsAt)}</time>
                      </p>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
          {list.hasNextPage ? (
            <Button variant="secondary" className="self-center" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              Load more
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
