import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { LIMITS } from '../../../common/limits';
import { AUTH_TEXTS } from '../../../common/texts';
import {
  isSessionLossExempt,
  isSigningOut,
  markSigningOut,
  ME_STALE_TIME_MS,
  onSessionEvent,
  storePostAuthPath,
} from '../../lib/session';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { refreshAfterSessionLoss } from './session-cache';

const SESSION_EXPIRED_TOAST_ID = 'session-expired';
const SESSION_CHECK_TOAST_ID = 'session-check-failed';

/**
 * Watches the session for the whole app (mounted once in the shell):
 * - polls auth.me every 5 minutes while signed in (spec: session check);
 * - a failed check shows 'Authentication Error';
 * - when auth.me turns from a user to null — after a refetch, an UNAUTHORIZED answer anywhere,
 *   or the socket's `session:revoked` — and it was not our own sign-out, the session is lost:
 *   outside /, /auth and /explore the toast 'Session Expired' shows for 5 s, then /auth.
 */
export function SessionWatcher() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery(undefined, {
    staleTime: ME_STALE_TIME_MS,
    refetchInterval: (query) => (query.state.data ? LIMITS.sessionCheckIntervalMs : false),
    refetchIntervalInBackground: false,
  });

  const lastUserId = useRef<string | null | undefined>(undefined);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Reports from the transport layers.
  useEffect(
    () =>
      onSessionEvent((event) => {
        if (!utils.auth.me.getData()) return; // already a visitor: nothing was lost
        if (event === 'revoked') utils.auth.me.setData(undefined, null);
        else void utils.auth.me.invalidate();
      }),
    [utils],
  );

  // User → null transitions.
  const userId = me.data === undefined ? undefined : (me.data?.id ?? null);
  useEffect(() => {
    if (userId === undefined) return;
    const previous = lastUserId.current;
    lastUserId.current = userId;

    if (userId) {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
      redirectTimer.current = null;
      return;
    }
    if (!previous) return;
    if (isSigningOut()) {
      markSigningOut(false);
      return;
    }

    const { pathname, href } = router.state.location;
    const exempt = isSessionLossExempt(pathname);
    refreshAfterSessionLoss(queryClient, { refetchActive: exempt });
    if (exempt) return;

    storePostAuthPath(href);
    notify.error(AUTH_TEXTS.sessionExpired, { duration: LIMITS.sessionExpiredToastMs, id: SESSION_EXPIRED_TOAST_ID });
    if (redirectTimer.current) clearTimeout(redirectTimer.current);
    redirectTimer.current = setTimeout(() => {
      redirectTimer.current = null;
      if (utils.auth.me.getData()) return; // signed back in meanwhile (another tab)
      void router.navigate({ to: '/auth', search: { tab: 'signin' } });
    }, LIMITS.sessionExpiredToastMs);
  }, [userId, router, queryClient, utils]);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  // A session check that could not be made (network, server) — not a signed-out answer.
  useEffect(() => {
    if (me.isError && me.errorUpdatedAt > 0) {
      notify.error(AUTH_TEXTS.sessionCheckFailed, { id: SESSION_CHECK_TOAST_ID });
    }
  }, [me.isError, me.errorUpdatedAt]);

  return null;
}
