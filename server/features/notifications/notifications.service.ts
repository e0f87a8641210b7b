import { TRPCError } from '@trpc/server';
import type { NotificationDto } from '../../../common/notifications';
import { NOTIFICATIONS_PAGE_SIZE } from '../../../common/notifications';
import type { NotificationListInput } from '../../../common/notification-schemas';
import type { AppDeps } from '../../../core/deps';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { unreadNotificationCount } from '../../../domain/notifications/notify';
import { findNotificationRows, toNotificationDto } from '../../../domain/notifications/rows';

type Deps = Pick<AppDeps, 'db' | 'realtime'> & Partial<EmitOrigin>;

/** The centre: the caller's rows, newest event first, keyset-paged, optionally of one kind. */
export async function listNotifications(deps: Pick<AppDeps, 'db'>, userId: string, input: NotificationListInput): Promise<{ items: NotificationDto[]; nextCursor: string | null }> {
  const before = input.cursor ? (([at, id]) => ({ at: at!, id: id! }))(input.cursor.split('~')) : null;
  const rows = await findNotificationRows(deps.db, { userId, kind: input.kind ?? null, before, limit: NOTIFICATIONS_PAGE_SIZE + 1 });
  const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    items: page.map(toNotificationDto).filter((d): d is NotificationDto => d !== null),
    nextCursor: rows.length > NOTIFICATIONS_PAGE_SIZE && last ? `${last.cursor_at}~${last.id}` : null,
  };
}

export async function unreadCount(deps: Pick<AppDeps, 'db'>, userId: string): Promise<{ count: number }> {
  return { count: await unreadNotificationCount(deps.db, userId) };
}

/** The user's other tabs (and this one, when it sent no socket id) hear the new count. */
async function announceCount(deps: Deps, userId: string): Promise<number> {
  const count = await unreadNotificationCount(deps.db, userId);
  deps.realtime.toUser(userId, 'notifications:unread', { count }, { except: deps.socketId ?? null });
  return count;
}

/** One row read; another user's id reads as unknown. */
export async function markRead(deps: Deps, userId: string, id: string): Promise<{ count: number }> {
  const result = await deps.db.updateTable('notifications').set({ read_at: new Date() }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Notification not found' });
  return { count: await announceCount(deps, userId) };
}

export async function markAllRead(deps: Deps, userId: string): Promise<{ count: number }> {
  await deps.db.updateTable('notifications').set({ read_at: new Date() }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
  return { count: await announceCount(deps, userId) };
}
