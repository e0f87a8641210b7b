import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { reportSessionEvent } from './session';
import { errorCode, isClientError } from './trpc';

/** Mutations whose UNAUTHORIZED answer means "wrong credentials", not "session lost". */
const CREDENTIAL_MUTATIONS = new Set(['auth.signIn', 'auth.verifyTwoFactor', 'auth.resetPassword', 'auth.confirmEmail']);

function procedurePath(key: readonly unknown[] | undefined): string | null {
  const first = key?.[0];
  return Array.isArray(first) ? first.join('.') : null;
}

function reportIfUnauthorized(error: unknown, key: readonly unknown[] | undefined) {
  if (errorCode(error) !== 'UNAUTHORIZED') return;
  const path = procedurePath(key);
  if (path && CREDENTIAL_MUTATIONS.has(path)) return;
  reportSessionEvent('unauthorized');
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => reportIfUnauthorized(error, query.queryKey),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportIfUnauthorized(error, mutation.options.mutationKey),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx would fail again: only network and server failures are retried (twice).
        retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
        refetchOnWindowFocus: true,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
