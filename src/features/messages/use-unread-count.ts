import { formatBadgeCount } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { trpc } from '../../lib/trpc';

/**
 * The unread-message count for the shell's badge. Only asked while signed in; the socket's
 * `unread:changed` invalidates it (lib/socket.ts), so no polling is needed.
 */
export function useUnreadCount(signedIn: boolean) {
  const query = trpc.messages.unreadCount.useQuery(undefined, {
    enabled: signedIn,
    staleTime: 60_000,
  });
  const count = signedIn ? (query.data ?? 0) : 0;
  return { count, label: count > 0 ? formatBadgeCount(count, LIMITS.unreadBadgeMax) : null };
}
