import type { AppDeps } from '../../deps';
import { countUnreadMessages } from './messages.queries';

/** The number behind the Messages badge (the client shows 99+ above 99). */
export function unreadCount(deps: Pick<AppDeps, 'db'>, userId: string): Promise<number> {
  return countUnreadMessages(deps.db, userId);
}
