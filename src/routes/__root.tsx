import { createRootRouteWithContext, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ME_STALE_TIME_MS } from '../lib/session';
import { AppToaster } from '../components/app-toaster';
import { PageSkeleton } from '../components/page-skeleton';
import type { RouterContext } from '../lib/router-context';
import { AppShell } from './-components/app-shell';
import { ErrorPage } from './-components/error-page';
import { NotFoundPage } from './-components/not-found-page';

export const Route = createRootRouteWithContext<RouterContext>()({
  // on the server the session is part of every page's first data (src/entry-server.tsx runs no route without `ssr: true`)
  ssr: true,
  // Start the session check with the navigation but do not wait for it (issue 14 item 4, no black
  // screen): the shell and the page's skeletons paint at once, the shell's session slots show a
  // neutral placeholder until the answer (so it never flips from visitor to user). Gated screens
  // (_authed) do wait for it; meanwhile the pending component below shows the shell and the
  // screen's skeleton. A failed check is not fatal: the SessionWatcher reports it.
  beforeLoad: ({ context }) => {
    void context.trpcUtils.auth.me.prefetch(undefined, { staleTime: ME_STALE_TIME_MS, retry: false });
  },
  component: RootLayout,
  // A first load is pending as a whole until every beforeLoad (the session gate) is done: the
  // root is the boundary, so its fallback paints the shell at once (0 ms) and lets it go at once.
  pendingComponent: RootPending,
  pendingMs: 0,
  pendingMinMs: 0,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  return (
    <RootFrame>
      <Outlet />
    </RootFrame>
  );
}

/** The screen being opened, as its skeleton: its route's `pendingComponent`, or a generic one. */
function RootPending() {
  const router = useRouter();
  const leafId = useRouterState({ select: (state) => state.matches.at(-1)?.routeId });
  const leaf = leafId && leafId !== Route.id ? router.routesById[leafId] : undefined;
  const Screen = leaf?.options.pendingComponent ?? PageSkeleton;
  return (
    <RootFrame>
      <Screen />
    </RootFrame>
  );
}

function RootFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <AppShell>{children}</AppShell>
      <AppToaster />
    </>
  );
}
