import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { AUTH_TEXTS } from '../../../common/texts';
import { markSigningOut, resetPostsViewed, takePostAuthPath } from '../../lib/session';
import { notify } from '../../lib/toast';
import { trpc, type CurrentUser } from '../../lib/trpc';
import { clearIdentityCache } from './session-cache';

/**
 * What follows a successful sign-in: the anonymous view counter restarts (spec part 1 §4), the
 * visitor's cache is dropped, auth.me holds the user (and is re-read), a toast welcomes them back,
 * and they go to the stored post-auth path or /.
 */
export function useCompleteSignIn() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  return useCallback(
    async (user: CurrentUser) => {
      markSigningOut(false);
      resetPostsViewed();
      clearIdentityCache(queryClient);
      utils.auth.me.setData(undefined, user);
      void utils.auth.me.invalidate();
      notify.success(AUTH_TEXTS.signInSucceeded);
      await router.navigate({ href: takePostAuthPath() ?? '/', replace: true });
    },
    [router, queryClient, utils],
  );
}
