import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { createTRPCQueryUtils } from '@trpc/react-query';
import type { ReactNode } from 'react';
import type { ServerPage } from '../common/first-data';
import type { createTrpcClient } from './lib/trpc';
import { trpc } from './lib/trpc';
import { routeTree } from './routeTree.gen';
import { ErrorPage } from './routes/-components/error-page';
import { NotFoundPage } from './routes/-components/not-found-page';

type TrpcClient = ReturnType<typeof createTrpcClient>;

/** What the server gives a request's router (src/entry-server.tsx); a test may add routes to the tree. */
export interface ServerRouterOptions {
  history?: RouterHistory;
  serverPage?: ServerPage;
  tree?: typeof routeTree;
}

/**
 * The app's router over a query cache and a tRPC client: one per tab in the browser (main.tsx),
 * one per request on the server (entry-server.tsx), so no request ever sees another's cache.
 */
export function createAppRouter(queryClient: QueryClient, trpcClient: TrpcClient, { history, serverPage, tree = routeTree }: ServerRouterOptions = {}) {
  const trpcUtils = createTRPCQueryUtils({ queryClient, client: trpcClient });

  function Providers({ children }: { children: ReactNode }) {
    return (
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </trpc.Provider>
    );
  }

  let hydrated = false;
  /**
   * Scroll restoration (reset to the top, or the place kept for that history entry) after every
   * render but the browser's first: that one is the hydration of a server-rendered page, which can
   * be read and scrolled before its scripts have run (and its post cards hydrate later still,
   * HydrateApart), so a reader who has scrolled, or whose browser put them back where they were
   * on reload, keeps their place instead of being sent back to the top when hydration ends.
   */
  const restoreScroll = () => {
    // (the server asks too, for the restoring script it puts in the page: unchanged)
    if (hydrated || typeof window === 'undefined') return true;
    hydrated = true;
    return window.scrollY === 0;
  };

  return createRouter({
    routeTree: tree,
    history,
    context: { queryClient, trpcUtils, serverPage },
    // Hovering or focusing a link runs its loaders; React Query decides what is fresh, not the router.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: restoreScroll,
    // Errors and unknown paths of any route render inside the shell.
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    Wrap: Providers,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
