import { useRouter } from '@tanstack/react-router';
import { useLayoutEffect, type ReactNode } from 'react';
import { isSigningOut, useMe } from '../../lib/session';

/** What the messaging screens show while the session is checked (spec part 2 §2). */
export function AuthChecking({ children }: { children?: ReactNode }) {
  return (
    <div aria-busy="true" className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <p role="status" className="text-sm text-muted">
        Checking authentication...
      </p>
      {children}
    </div>
  );
}

/**
 * The messaging screens need a session; when it ends while one is open (not by signing out, which
 * goes home), the `_authed` gate runs again: the path is stored and the user goes to /auth.
 */
export function useGateOnSessionLoss(): void {
  const router = useRouter();
  const me = useMe();
  const signedOut = me.data === null;
  useLayoutEffect(() => {
    if (signedOut && !isSigningOut()) void router.invalidate();
  }, [signedOut, router]);
}
