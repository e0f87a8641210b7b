import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { ME_STALE_TIME_MS, storePostAuthPath } from '../lib/session';

/**
 * Pathless layout for every screen that needs a session (settings, create, messages, ... as
 * later issues add them under `_authed.`). A visitor's path is kept as the post-auth path and
 * they go to /auth (sign-in tab), replacing the history entry.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: async ({ context, location, preload }) => {
    const user = await context.trpcUtils.auth.me.ensureData(undefined, { staleTime: ME_STALE_TIME_MS });
    if (!user) {
      if (!preload) storePostAuthPath(location.href);
      throw redirect({ to: '/auth', search: { tab: 'signin' }, replace: true });
    }
    return { user };
  },
  component: Outlet,
});
