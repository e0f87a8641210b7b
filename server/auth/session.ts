import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { SESSION } from '../../common/limits';
import type { SessionInfo } from '../../core/sessions/resolved-session';
import type { DB } from '../../core/db/kysely';
import { hashToken } from '../../core/token-hash';
import { deleteSession, deleteUserSessions, insertSession } from './session.queries';

/** 160 random bits, base32: the only copy lives in the user's cookie. */
export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export async function createSession(
  db: DB,
  token: string,
  userId: string,
  meta: { userAgent?: string | null; ip?: string | null } = {},
): Promise<SessionInfo> {
  const session: SessionInfo = {
    id: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION.lifetimeMs),
  };
  await insertSession(db, {
    id: session.id,
    userId,
    expiresAt: session.expiresAt,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    ip: meta.ip ?? null,
  });
  return session;
}

export async function invalidateSession(db: DB, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
}

/** Deletes the user's sessions, all or all but `exceptSessionId`; returns the ids removed. */
export function invalidateUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<string[]> {
  return deleteUserSessions(db, userId, exceptSessionId);
}
