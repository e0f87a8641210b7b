import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { SESSION } from '../../common/limits';
import type { UserRole } from '../../common/enums';
import type { DB } from '../../core/db/kysely';
import { hashToken } from '../../core/token-hash';

/** The signed-in user as the server sees it; never carries a hash. */
export interface SessionUser {
  id: string;
  email: string;
  role: UserRole;
  emailVerified: boolean;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  isCreator: boolean;
  isPremium: boolean;
  isVerified: boolean;
}

export interface SessionInfo {
  id: string;
  userId: string;
  expiresAt: Date;
}

export interface ValidatedSession {
  session: SessionInfo;
  user: SessionUser;
  /** true when the expiry moved forward and the cookie must be re-sent */
  renewed: boolean;
}

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
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: userId,
      expires_at: session.expiresAt,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      ip: meta.ip ?? null,
    })
    .execute();
  return session;
}

export async function validateSessionToken(db: DB, token: string): Promise<ValidatedSession | null> {
  const sessionId = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'users.id as user_id',
      'users.email',
      'users.role',
      'users.email_verified_at',
      'profiles.username',
      'profiles.display_name',
      'profiles.avatar_url',
      'profiles.is_creator',
      'profiles.is_premium',
      'profiles.is_verified',
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return null;

  const now = Date.now();
  if (row.expires_at.getTime() <= now) {
    await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    return null;
  }
  let expiresAt = row.expires_at;
  let renewed = false;
  if (expiresAt.getTime() - now < SESSION.renewWhenUnderMs) {
    expiresAt = new Date(now + SESSION.lifetimeMs);
    renewed = true;
    await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();
  }
  return {
    session: { id: row.session_id, userId: row.user_id, expiresAt },
    user: {
      id: row.user_id,
      email: row.email,
      role: row.role,
      emailVerified: row.email_verified_at !== null,
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      isCreator: row.is_creator,
      isPremium: row.is_premium,
      isVerified: row.is_verified,
    },
    renewed,
  };
}

export async function invalidateSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Deletes the user's sessions, all or all but `exceptSessionId`; returns the ids removed. */
export async function invalidateUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(exceptSessionId !== undefined, (q) => q.where('id', '!=', exceptSessionId!))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
