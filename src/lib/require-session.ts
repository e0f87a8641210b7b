import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { ToastText } from '../../common/texts';
import type { RouterContext } from './router-context';
import { ME_STALE_TIME_MS, storePostAuthPath } from './session';
import { notify } from './toast';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /**
     * A gated screen's own words for a visitor turned away (spec part 1 §6: /explore says
     * 'Authentication Required - Please sign in to access the explore page'); none: no toast.
     */
    signInRequired?: ToastText;
  }
}

const SIGN_IN_REQUIRED_TOAST_ID = 'sign-in-required';

/** What the gate reads of the matched routes: their static data. */
export type GateMatches = ReadonlyArray<{ staticData?: { signInRequired?: ToastText } }>;

/**
 * The session gate of the pathless `_authed` layout route (src/routes/_authed.tsx; DESIGN.md:
 * "auth gating by a pathless `_authed` layout route whose beforeLoad redirects with the return
 * path"). A visitor's path is kept as the post-auth path, the screen's `staticData.signInRequired`
 * toast (if it has one) shows, and they go to /auth on the sign-in tab, replacing the history
 * entry. Gated screens are files named `_authed.explore.tsx`, `_authed.settings.tsx`, ...
 * Preloading (hovering a link) checks but neither stores, nor says anything.
 */
export async function requireSession({
  context,
  location,
  preload,
  matches,
}: {
  context: RouterContext;
  location: ParsedLocation;
  preload: boolean;
  matches: GateMatches;
}) {
  const user = await context.trpcUtils.auth.me.ensureData(undefined, { staleTime: ME_STALE_TIME_MS });
  if (!user) {
    if (!preload) {
      storePostAuthPath(location.href);
      const text = [...matches].reverse().find((m) => m.staticData?.signInRequired)?.staticData?.signInRequired;
      if (text) notify.error(text, { id: SIGN_IN_REQUIRED_TOAST_ID });
    }
    throw redirect({ to: '/auth', search: { tab: 'signin' }, replace: true });
  }
  return { user };
}
