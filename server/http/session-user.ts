import type { IncomingMessage, ServerResponse } from 'node:http';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../auth/cookies';
import { validateSessionToken, type SessionUser } from '../auth/session';
import type { AppDeps } from '../../core/deps';

/**
 * The signed-in user of a plain HTTP request (uploads, the queue dashboard, metrics), read from
 * the session cookie exactly as tRPC's context reads it: a dead cookie is cleared, a session
 * near its end is renewed.
 */
export async function sessionUserOf(deps: Pick<AppDeps, 'db' | 'config'>, req: IncomingMessage, res: ServerResponse): Promise<SessionUser | null> {
  const token = readSessionCookie(req);
  if (!token) return null;
  const auth = await validateSessionToken(deps.db, token);
  if (!auth) {
    clearSessionCookie(res, deps.config.cookieSecure);
    return null;
  }
  if (auth.renewed) setSessionCookie(res, token, auth.session.expiresAt, deps.config.cookieSecure);
  return auth.user;
}
