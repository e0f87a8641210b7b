import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { AUTH_TEXTS } from '../../../common/texts';
import { markSigningOut } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, isServerError, trpc } from '../../lib/trpc';
import { clearIdentityCache } from './session-cache';

/**
 * Signs this browser out (scope local): the cache of the signed-in identity is cleared, a toast
 * confirms, and the user lands on /. A failure shows 'Error' with the message or 'Failed to sign out'.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const { mutateAsync, isPending } = trpc.auth.signOut.useMutation();

  const signOut = useCallback(async () => {
    markSigningOut(true);
    try {
      await mutateAsync({ scope: 'local' });
    } catch (error) {
      // No session left on the server: the outcome the user asked for.
      if (errorCode(error) !== 'UNAUTHORIZED') {
        markSigningOut(false);
        notify.error({
          title: AUTH_TEXTS.signOutFailed.title,
          description: (isServerError(error) && error.message) || AUTH_TEXTS.signOutFailed.description,
        });
        return;
      }
    }
    clearIdentityCache(queryClient);
    utils.auth.me.setData(undefined, null);
    notify.success(AUTH_TEXTS.signedOut);
    await navigate({ to: '/' });
  }, [mutateAsync, queryClient, utils, navigate]);

  return { signOut, isPending };
}
