import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import {
  NOTIFICATION_KIND_INFO,
  NOTIFICATION_KINDS,
  NOTIFICATION_SUBJECT_GONE,
  notificationText,
  type NotificationDto,
  type NotificationKind,
} from '../../../common/notifications';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

export const notificationListOptions = {
  staleTime: 0,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor,
  initialCursor: null,
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /notifications: newest first, keyset-paged, one kind or all; a row leads to its subject or says it is gone. */
export function NotificationCentre({ kind, onKind }: { kind: NotificationKind | null; onKind: (kind: NotificationKind | null) => void }) {
  const utils = trpc.useUtils();
  const list = trpc.notifications.list.useInfiniteQuery({ kind }, notificationListOptions);
  const markRead = trpc.notifications.markRead.useMutation({
    onSuccess: ({ count }) => {
      utils.notifications.unreadCount.setData(undefined, { count });
      void utils.notifications.list.invalidate();
    },
  });
  const markAll = trpc.notifications.markAllRead.useMutation({
    onSuccess: ({ count }) => {
      utils.notifications.unreadCount.setData(undefined, { count });
      void utils.notifications.list.invalidate();
    },
  });
  useEffect(() => {
    if (list.isError) notify.error({ title: 'Error', description: 'Could not load your notifications.' }, { id: 'notifications-failed' });
  }, [list.isError]);
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  // nothing unread (or nothing at all): no "Mark all as read" (issue 47)
  const unread = trpc.notifications.unreadCount.useQuery(undefined, { staleTime: 60_000 });
  const anyUnread = (unread.data?.count ?? 0) > 0;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label className="flex min-w-0 flex-1 items-center gap-2 text-sm text-muted sm:flex-none">
          Show
          <select
            className="h-9 min-w-0 flex-1 rounded-md border border-border bg-surface px-2 text-sm text-foreground"
            value={kind ?? ''}
            onChange={(e) => onKind((e.target.value || null) as NotificationKind | null)}
          >
            <option value="">All notifications</option>
            {NOTIFICATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {NOTIFICATION_KIND_INFO[k].label}
              </option>
            ))}
          </select>
        </label>
        {anyUnread ? (
          <Button variant="secondary" size="sm" onClick={() => markAll.mutate()} loading={markAll.isPending}>
            Mark all as read
          </Button>
        ) : null}
      </div>
      {list.isPending ? (
        <div className="flex flex-col gap-2" aria-label="Loading notifications">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-16 rounded-card" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <p className="rounded-card border border-border bg-surface p-6 text-center text-muted">No notifications yet.</p>
      ) : (
        <ul className="divide-y divide-border rounded-card border border-border bg-surface" data-testid="notification-list">
          {rows.map((row) => (
            <NotificationRow key={row.id} row={row} onOpen={() => !row.read && markRead.mutate({ id: row.id })} />
          ))}
        </ul>
      )}
      {list.hasNextPage ? (
        <Button variant="secondary" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          Load more
        </Button>
      ) : null}
    </div>
  );
}

function NotificationRow({ row, onOpen }: { row: NotificationDto; onOpen: () => void }) {
  const text = notificationText(row.kind, row.actor?.displayName ?? null, row.actorCount);
  const body = (
    <>
      <Avatar src={row.actor?.avatarUrl ?? null} name={row.actor?.displayName ?? 'CreatorHub'} size="sm" ring={false} />
      <span className="flex min-w-0 flex-1 flex-col">
        <span className={cn('text-sm', row.read ? 'text-muted' : 'font-medium text-foreground')}>{text}</span>
        <span className="text-xs text-subtle">
          {when(row.at)}
          {row.href ? null : ` · ${NOTIFICATION_SUBJECT_GONE}`}
        </span>
      </span>
      {row.read ? null : <span aria-label="Unread" className="size-2 shrink-0 rounded-full bg-pink" />}
    </>
  );
  const cls = 'flex items-center gap-3 px-4 py-3';
  return (
    <li data-testid="notification-row">
      {row.href ? (
        <Link to={row.href} onClick={onOpen} className={cn(cls, 'hover:bg-surface-hover focus-visible:outline-2')}>
          {body}
        </Link>
      ) : (
        <button type="button" onClick={onOpen} className={cn(cls, 'w-full text-left')}>
          {body}
        </button>
      )}
    </li>
  );
}
