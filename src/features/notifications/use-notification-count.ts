import { formatBadgeCount } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { trpc } from '../../lib/trpc';

/**
 * The bell's unread count. Asked once while signed in; then the server pushes each new count
 * (`notifications:unread`, to the user's own room) and the cache takes it: no polling.
 */
export function useNotificationCount(signedIn: boolean) {
  const utils = trpc.useUtils();
  const query = trpc.notifications.unreadCount.useQuery(undefined, { enabled: signedIn, staleTime: 60_000 });
  useRealtimeEvent('notifications:unread', ({ count }) => {
    utils.notifications.unreadCount.setData(undefined, { count });
    void utils.notifications.list.invalidate();
  });
  const count = signedIn ? (query.data?.count ?? 0) : 0;
  return { count, label: count > 0 ? formatBadgeCount(count, LIMITS.unreadBadgeMax) : null };
}
