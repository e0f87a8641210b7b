import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { createTRPCQueryUtils } from '@trpc/react-query';
import type { ReactNode } from 'react';
import { hydrateFirstData } from './lib/first-data';
import { createQueryClient } from './lib/query-client';
import { createTrpcClient, trpc } from './lib/trpc';
import { routeTree } from './routeTree.gen';
import { ErrorPage } from './routes/-components/error-page';
import { NotFoundPage } from './routes/-components/not-found-page';

export const queryClient = createQueryClient();
// the route's first data, which the server put into the page (no second round trip before the first paint)
export const pageBroughtData = hydrateFirstData(queryClient);
export const trpcClient = createTrpcClient();
const trpcUtils = createTRPCQueryUtils({ queryClient, client: trpcClient });

function Providers({ children }: { children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

export const router = createRouter({
  routeTree,
  context: { queryClient, trpcUtils },
  // Hovering or focusing a link runs its loaders; React Query decides what is fresh, not the router.
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  // Errors and unknown paths of any route render inside the shell.
  defaultErrorComponent: ErrorPage,
  defaultNotFoundComponent: NotFoundPage,
  Wrap: Providers,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
