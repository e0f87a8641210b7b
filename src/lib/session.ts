import { useRouter } from '@tanstack/react-router';
import { useLayoutEffect } from 'react';
import { trpc } from './trpc';

/**
 * The browser's view of the session: the `auth.me` query (null = visitor), where to go after
 * signing in, and a tiny event bus through which the transport layers (tRPC errors, the socket)
 * report that the session is gone. The SessionWatcher (features/auth) acts on those reports.
 */

/** `auth.me` is re-read at most this often on focus/mount; the watcher also polls it every 5 minutes. */
export const ME_STALE_TIME_MS = 30_000;

/** The signed-in user, or null for a visitor; undefined while the first answer is pending. */
export function useMe() {
  return trpc.auth.me.useQuery(undefined, { staleTime: ME_STALE_TIME_MS });
}

// ---- post-auth redirect -------------------------------------------------------------------

const POST_AUTH_KEY = 'postAuthRedirect';

/** Only same-site app paths are remembered (never //host, never the auth pages themselves). */
function isSafeAppPath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && !/^\/auth(\/|\?|$)/.test(path);
}

export function storePostAuthPath(path: string): void {
  if (!isSafeAppPath(path)) return;
  try {
    sessionStorage.setItem(POST_AUTH_KEY, path);
  } catch {
    // storage disabled: the user simply lands on / after signing in
  }
}

export function peekPostAuthPath(): string | null {
  try {
    const path = sessionStorage.getItem(POST_AUTH_KEY);
    return path && isSafeAppPath(path) ? path : null;
  } catch {
    return null;
  }
}

/** Reads and forgets the stored path. */
export function takePostAuthPath(): string | null {
  const path = peekPostAuthPath();
  try {
    sessionStorage.removeItem(POST_AUTH_KEY);
  } catch {
    // ignore
  }
  return path;
}

// ---- anonymous view counter (spec part 1 §4: reset to 0 on sign-in) -----------------------

export const POSTS_VIEWED_KEY = 'postsViewed';

export function resetPostsViewed(): void {
  try {
    localStorage.setItem(POSTS_VIEWED_KEY, '0');
  } catch {
    // ignore
  }
}

// ---- session events -------------------------------------------------------------------------

/**
 * - `unauthorized`: a call was refused for want of a session; the watcher re-reads auth.me.
 * - `revoked`: the server said this session ended (socket `session:revoked`); no need to ask.
 */
export type SessionEvent = 'unauthorized' | 'revoked';
type Listener = (event: SessionEvent) => void;

const listeners = new Set<Listener>();

export function reportSessionEvent(event: SessionEvent): void {
  for (const listener of listeners) listener(event);
}

export function onSessionEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// ---- deliberate sign-out --------------------------------------------------------------------

let signingOut = false;

/** Set before calling auth.signOut so the watcher does not take our own sign-out for a lost session. */
export function markSigningOut(value: boolean): void {
  signingOut = value;
}

export function isSigningOut(): boolean {
  return signingOut;
}

/**
 * For a screen behind the `_authed` gate: when the session ends while it is open (not by signing
 * out, which goes home), the gate runs again (the path is stored, the user goes to /auth). A
 * layout effect, so it reads the sign-out flag before the session watcher's effect clears it.
 */
export function useGateOnSessionLoss(): void {
  const router = useRouter();
  const me = useMe();
  const signedOut = me.data === null;
  useLayoutEffect(() => {
    if (signedOut && !isSigningOut()) void router.invalidate();
  }, [signedOut, router]);
}

/** Paths where losing the session needs no toast or redirect (spec part 1 §4). */
export function isSessionLossExempt(pathname: string): boolean {
  return pathname === '/' || pathname === '/auth' || pathname.startsWith('/auth/') || pathname === '/explore' || pathname.startsWith('/explore/');
}
