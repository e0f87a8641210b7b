import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { Toaster } from 'sonner';
import { LIMITS } from '../../common/limits';
import { ME_STALE_TIME_MS } from '../lib/session';
import type { RouterContext } from '../lib/router-context';
import { AppShell } from './-components/app-shell';
import { ErrorPage } from './-components/error-page';
import { NotFoundPage } from './-components/not-found-page';

export const Route = createRootRouteWithContext<RouterContext>()({
  // Know who is signed in before the first paint, so the shell never flips from visitor to user.
  // A failed check is not fatal here: the SessionWatcher reports it ('Authentication Error').
  beforeLoad: async ({ context }) => {
    await context.trpcUtils.auth.me
      .ensureData(undefined, { staleTime: ME_STALE_TIME_MS, retry: false })
      .catch(() => undefined);
  },
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

function RootLayout() {
  return (
    <>
      <AppShell>
        <Outlet />
      </AppShell>
      <Toaster
        theme="dark"
        position="bottom-right"
        richColors
        closeButton
        mobileOffset={{ bottom: 84 }}
        toastOptions={{ duration: LIMITS.toastMs, classNames: { description: 'whitespace-pre-line' } }}
      />
    </>
  );
}
