import type { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { markSigningOut } from '../../lib/session';
import { trpc } from '../../lib/trpc';

type Utils = ReturnType<typeof trpc.useUtils>;

/**
 * This browser's session ended by the user's own action (signed out here, everywhere, or the
 * account deleted): every cached answer of the identity goes and auth.me becomes null. Marked as
 * our own sign-out so the session watcher shows no 'Session Expired'.
 */
export function forgetIdentity(queryClient: QueryClient, utils: Utils): void {
  markSigningOut(true);
  const meKey = getQueryKey(trpc.auth.me);
  const isMe = (key: readonly unknown[]) => JSON.stringify(key[0]) === JSON.stringify(meKey[0]);
  queryClient.removeQueries({ predicate: (q) => !isMe(q.queryKey) });
  utils.auth.me.setData(undefined, null);
}
