import { redirect, type ParsedLocation } from '@tanstack/react-router';
import type { RouterContext } from './router-context';
import { ME_STALE_TIME_MS, storePostAuthPath } from './session';

/**
 * The session gate of the pathless `_authed` layout route (DESIGN.md: "auth gating by a pathless
 * `_authed` layout route whose beforeLoad redirects with the return path"). A visitor's path is
 * kept as the post-auth path and they go to /auth on the sign-in tab, replacing the history entry.
 *
 * The layout file itself arrives with the first gated screen: TanStack's generator refuses a
 * pathless layout without children (its full path "/" collides with the index route). It is:
 *
 *   // src/routes/_authed.tsx
 *   export const Route = createFileRoute('/_authed')({ beforeLoad: requireSession, component: Outlet });
 *
 * and gated screens are files named `_authed.settings.tsx`, `_authed.create.tsx`, ...
 */
export async function requireSession({
  context,
  location,
  preload,
}: {
  context: RouterContext;
  location: ParsedLocation;
  preload: boolean;
}) {
  const user = await context.trpcUtils.auth.me.ensureData(undefined, { staleTime: ME_STALE_TIME_MS });
  if (!user) {
    if (!preload) storePostAuthPath(location.href);
    throw redirect({ to: '/auth', search: { tab: 'signin' }, replace: true });
  }
  return { user };
}
