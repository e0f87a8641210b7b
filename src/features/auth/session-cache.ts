import type { Query, QueryClient } from '@tanstack/react-query';

/** tRPC keys look like [['auth', 'me'], { type: 'query' }]. */
function isMeQuery(query: Query): boolean {
  const path = query.queryKey[0];
  return Array.isArray(path) && path[0] === 'auth' && path[1] === 'me';
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
