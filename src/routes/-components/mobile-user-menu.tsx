import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { CurrentUser } from '../../lib/trpc';

// The menu (Radix) loads only where it shows: signed in, below 768 px. Visitors and desktops never fetch it.
const MobileUserMenuDropdown = lazy(() => import('./mobile-user-menu-dropdown'));

/** The layout's breakpoint (spec part 1 §2: the mobile variant below 768 px; Tailwind's md). */
const DESKTOP = '(min-width: 48rem)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(DESKTOP);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isBelowDesktop = () => !window.matchMedia(DESKTOP).matches;

/** Below 768 px: the username opens Settings and Sign Out. */
export function MobileUserMenu(props: { user: CurrentUser; onSignOut: () => void }) {
  const below = useSyncExternalStore(subscribe, isBelowDesktop, () => false);
  if (!below) return null;
  return (
    <Suspense fallback={<span aria-hidden="true" className="h-9 w-24" />}>
      <MobileUserMenuDropdown {...props} />
    </Suspense>
  );
}
