import { formatBadgeCount } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { trpc } from '../../lib/trpc';

/**
 * The unread-message count for the shell's badge. Asked once while signed in; after that the
 * server pushes each new count (`unread:changed`, to the user's own room) and the cache takes it,
 * so there is no polling.
 */
export function useUnreadCount(signedIn: boolean) {
  const utils = trpc.useUtils();
  const query = trpc.messages.unreadCount.useQuery(undefined, {
    enabled: signedIn,
    staleTime: 60_000,
  });
  useRealtimeEvent('unread:changed', ({ count }) => utils.messages.unreadCount.setData(undefined, count));
  const count = signedIn ? (query.data ?? 0) : 0;
  return { count, label: count > 0 ? formatBadgeCount(count, LIMITS.unreadBadgeMax) : null };
}
