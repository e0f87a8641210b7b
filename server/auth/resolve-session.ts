import type { ServerResponse } from 'node:http';
import { SESSION } from '../../common/limits';
import type { AppDeps } from '../../core/deps';
import { hashToken } from '../../core/token-hash';
import { clearSessionCookie, sessionTokenOf, setSessionCookie } from './cookies';
import type { ResolvedSession, SessionUser } from '../../core/sessions/resolved-session';
import { deleteSession, findSessionWithUser, setSessionExpiry, touchSession, type SessionWithUserRow } from './session.queries';
import { userDtoOf } from '../../domain/people/user-columns';

/** "Last seen" in the sessions list is this precise: one write per session per 5 minutes at most. */
const SESSION_SEEN_EVERY_MS = 5 * 60_000;

export type SessionDeps = Pick<AppDeps, 'db' | 'config' | 'sessionCache'>;

/**
 * The session (and its user) a request's `Cookie` header carries, or null: the one way every
 * door reads it (tRPC's context, the media route, tus uploads, the queue dashboard and metrics,
 * the socket handshake). One query, or none when this copy resolved the same session in the
 * last few seconds (core/sessions/session-cache.ts: ending a session or changing its user's details makes
 * every copy forget it at once). An expired session is deleted; one with fewer than
 * SESSION.renewWhenUnderMs left is extended to SESSION.lifetimeMs.
 *
 * `res` is the HTTP response when there is one: a cookie that names no live session is cleared
 * and a renewed one is sent again with its new expiry. A socket handshake has no response to
 * set a cookie on; the next HTTP request of that browser does it.
 */
export async function resolveSession(deps: SessionDeps, cookieHeader: string | undefined, res?: ServerResponse): Promise<ResolvedSession | null> {
  const token = sessionTokenOf(cookieHeader);
  if (!token) return null;
  const sessionId = hashToken(token);
  const cached = deps.sessionCache.get(sessionId);
  // an entry near its expiry or renewal takes the database path, which deletes or renews it
  if (cached && cached.session.expiresAt.getTime() - Date.now() >= SESSION.renewWhenUnderMs) return cached;
  const version = deps.sessionCache.version();
  const row = await findSessionWithUser(deps.db, sessionId);
  const now = Date.now();
  if (!row || row.expires_at.getTime() <= now) {
    if (row) await deleteSession(deps.db, sessionId);
    if (res) clearSessionCookie(res, deps.config.cookieSecure);
    return null;
  }
  if (now - row.last_seen_at.getTime() > SESSION_SEEN_EVERY_MS) await touchSession(deps.db, sessionId, new Date(now));
  let expiresAt = row.expires_at;
  if (expiresAt.getTime() - now < SESSION.renewWhenUnderMs) {
    expiresAt = new Date(now + SESSION.lifetimeMs);
    await setSessionExpiry(deps.db, sessionId, expiresAt);
    if (res) setSessionCookie(res, token, expiresAt, deps.config.cookieSecure);
  }
  const resolved = { session: { id: row.session_id, userId: row.user_id, expiresAt }, user: toSessionUser(row) };
  deps.sessionCache.set(sessionId, resolved, version);
  return resolved;
}

function toSessionUser(row: SessionWithUserRow): SessionUser {
  return { ...userDtoOf(row.user_id, row), emailVerified: row.email_verified_at !== null };
}
