import { Link } from '@tanstack/react-router';
import { FileText, MessageSquare, ShoppingBag } from 'lucide-react';
import { formatRand } from '../../../common/format';
import { PURCHASE_FILTERS, PURCHASE_TEXTS, type PurchaseDto, type PurchaseFilter } from '../../../common/purchase-schemas';
import { EmptyState } from '../../components/empty-state';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { Loaded } from '../../components/load-states';
import { Avatar } from '../../components/ui/avatar';
import { cn } from '../../lib/cn';
import { formatCalendarDate } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { trpc } from '../../lib/trpc';

/**
 * The fan's "Purchased" collection (issue 47 item 8), /{own username}/purchased: every
 * pay-per-view post and paid message they bought, newest first, filtered by kind, 10 at a time
 * with infinite scroll. The server answers the signed-in user's own purchases only.
 */
export function PurchasesPage({ filter, onFilter }: { filter: PurchaseFilter; onFilter: (next: PurchaseFilter) => void }) {
  usePageTitle(PURCHASE_TEXTS.title);
  const list = trpc.purchases.mine.useInfiniteQuery({ filter, limit: 10 }, { getNextPageParam: (page) => page.nextCursor, refetchOnMount: 'always' });
  return (
    <section aria-labelledby="purchased-heading" className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1 id="purchased-heading" className="flex items-center gap-2 text-2xl font-bold text-foreground">
          <ShoppingBag aria-hidden="true" className="size-6 text-violet-300" />
          {PURCHASE_TEXTS.title}
        </h1>
        <div role="group" aria-label="Show" className="flex gap-1 self-start rounded-full border border-border bg-surface p-1">
          {PURCHASE_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => onFilter(f)}
              className={cn(
                'min-h-9 rounded-full px-4 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400',
                filter === f ? 'bg-violet-600 text-white' : 'text-muted hover:bg-surface-raised hover:text-foreground',
              )}
            >
              {PURCHASE_TEXTS.filters[f]}
            </button>
          ))}
        </div>
      </div>
      <Loaded query={list} loading="Loading purchases" failed={PURCHASE_TEXTS.loadFailed} rows={3} rowClassName="h-20 w-full rounded-card" placeholderClassName="gap-3">
        {(data) => {
          const items = data.pages.flatMap((p) => p.items);
          if (items.length === 0) return <EmptyState icon={ShoppingBag}>{filter === 'all' ? PURCHASE_TEXTS.empty : filter === 'posts' ? PURCHASE_TEXTS.emptyPosts : PURCHASE_TEXTS.emptyMessages}</EmptyState>;
          return (
            <>
              <ul aria-label="Your purchases" className="flex flex-col gap-3">
                {items.map((p) => (
                  <PurchaseRow key={`${p.kind}-${p.id}`} purchase={p} />
                ))}
              </ul>
              <LoadMoreSentinel
                enabled={list.hasNextPage && !list.isFetchingNextPage}
                onVisible={() => void list.fetchNextPage()}
                itemCount={items.length}
                testId="purchases-sentinel"
                end={!list.hasNextPage}
              />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function PurchaseRow({ purchase: p }: { purchase: PurchaseDto }) {
  const name = p.creator.displayName || p.creator.username;
  const title = p.post ? p.post.name : (p.message?.text ?? PURCHASE_TEXTS.fileOnly);
  const Icon = p.kind === 'post' ? FileText : MessageSquare;
  return (
    <li data-testid="purchase" aria-label={title} className="flex items-center gap-3 rounded-card border border-border bg-surface p-3 md:p-4">
      <Avatar src={p.creator.avatarUrl} name={name} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold text-foreground">
          {p.post ? (
            <Link to="/post/$id" params={{ id: p.post.id }} className="underline-offset-4 hover:underline">
              {title}
            </Link>
          ) : (
            <Link to="/messages/$username" params={{ username: p.creator.username }} className="underline-offset-4 hover:underline">
              {title}
            </Link>
          )}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted">
          <span className="inline-flex items-center gap-1">
            <Icon aria-hidden="true" className="size-3.5" />
            {p.kind === 'post' ? PURCHASE_TEXTS.postKind : PURCHASE_TEXTS.messageKind}
          </span>
          <span aria-hidden="true">·</span>
          <span className="truncate">{name}</span>
          <span aria-hidden="true">·</span>
          <span>{formatCalendarDate(p.purchasedAt)}</span>
        </p>
      </div>
      <p className="shrink-0 text-right text-sm">
        <span className="block font-semibold text-foreground">{formatRand(p.amount)}</span>
        <span className="block text-xs font-medium text-emerald-300">Purchased</span>
      </p>
    </li>
  );
}
