import { lazy, Suspense, type ReactNode } from "react";
import { SessionWatcher } from "../../features/auth/session-watcher";
import { useLivePostUpdates } from "../../features/feed/use-live-post-updates";
import { useEntitlementUpdates } from "../../features/subscriptions/use-entitlement-updates";
import { useUploadUpdates } from "../../features/uploads/use-upload-updates";
import { useMe } from "../../lib/session";
import { PostUnlockSlot } from "../../features/posts/post-unlock-slot";
import { useRealtimeConnection } from "../../lib/realtime/connection";
import { useResyncOnRequest } from "../../lib/realtime/resync";
import { MobileBottomBar } from "./mobile-bottom-bar";
import { SiteFooter } from "./site-footer";

// a creator's tip toasts: only for the signed in, so visitors' first page does not load them
// loads when a pay-per-view post is first shown locked (the landing page's budget)
const UnlockOverlay = lazy(
  () => import("../../features/subscriptions/unlock-overlay"),
);
const TipNotices = lazy(() =>
  import("../../features/subscriptions/use-tip-notices").then((m) => ({
    default: m.TipNotices,
  })),
);
import { TopBar } from "./top-bar";

/** Top bar, page, desktop footer and mobile bottom bar; plus the session watcher, the socket, its live post updates and the creator's upload events. */
export function AppShell({ children }: { children: ReactNode }) {
  const me = useMe();
  const user = me.data ?? null;
  // visitors connect too (live counts, deleted posts); wait until we know who is signed in
  useRealtimeConnection(me.isPending ? undefined : (user?.id ?? null));
  // live events lost to a Redis outage: what is shown is read again
  useResyncOnRequest();
  useLivePostUpdates();
  // the creator's uploads: 'Post published', failures, progress (on every screen)
  useUploadUpdates();
  // a subscription started or lapsed: that creator's premium posts unlock or lock in place
  useEntitlementUpdates();

  return (
    <PostUnlockSlot.Provider value={UnlockOverlay}>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-full bg-accent px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        <SessionWatcher />
        {user ? (
          <Suspense fallback={null}>
            <TipNotices />
          </Suspense>
        ) : null}
        <TopBar user={user} sessionPending={me.isPending} />
        <main
          id="main"
          tabIndex={-1}
          className="flex-1 pt-16 pb-20 outline-none md:pb-0"
        >
          {children}
        </main>
        <SiteFooter />
        <MobileBottomBar user={user} sessionPending={me.isPending} />
      </div>
    </PostUnlockSlot.Provider>
  );
}
