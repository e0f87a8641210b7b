import type { AppDeps } from '../../../core/deps';
import { countUnreadMessages } from './messages.queries';

/** The number behind the Messages badge (the client shows 99+ above 99). */
export function unreadCount(deps: Pick<AppDeps, 'db'>, userId: string): Promise<number> {
  return countUnreadMessages(deps.db, userId);
}

/**
 * Pushes the user's new unread count to their own room (`unread:changed`), so the badge of every
 * tab they have open follows without polling. Whatever changes the count (a message to them, one
 * of theirs read) calls this once it has committed.
 */
export async function announceUnreadCount(deps: Pick<AppDeps, 'db' | 'realtime'>, userId: string): Promise<number> {
  const count = await countUnreadMessages(deps.db, userId);
  deps.realtime.toUser(userId, 'unread:changed', { count });
  return count;
}
