import { matchQuery, type Query, type QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '../../lib/trpc';

function isMeQuery(query: Query): boolean {
  return matchQuery({ queryKey: getQueryKey(trpc.auth.me) }, query);
}

/**
 * Forgets everything cached for the previous identity (feed, profiles, counts, ...) when who is
 * signed in changes. auth.me itself is kept; the caller sets it to the new user or null.
 */
export function clearIdentityCache(queryClient: QueryClient): void {
  queryClient.cancelQueries({ predicate: (q) => !isMeQuery(q) }).catch(() => undefined);
  queryClient.removeQueries({ predicate: (q) => !isMeQuery(q) });
}

/** After a session is lost: drop what nobody shows, refresh what is on screen. */
export function refreshAfterSessionLoss(queryClient: QueryClient, { refetchActive }: { refetchActive: boolean }): void {
  queryClient.removeQueries({ type: 'inactive', predicate: (q) => !isMeQuery(q) });
  if (refetchActive) void queryClient.invalidateQueries({ type: 'active', predicate: (q) => !isMeQuery(q) });
}
