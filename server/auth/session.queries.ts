import type { DB } from '../../core/db/kysely';
import { USER_DTO_COLUMNS } from '../../domain/people/user-columns';

/** Session rows; `id` is always the SHA-256 of the cookie's token, never the token. */

export async function insertSession(
  db: DB,
  row: { id: string; userId: string; expiresAt: Date; userAgent: string | null; ip: string | null },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id: row.id, user_id: row.userId, expires_at: row.expiresAt, user_agent: row.userAgent, ip: row.ip })
    .execute();
}

/** The session with its user and profile, in one read (every request that carries a cookie). */
export function findSessionWithUser(db: DB, sessionId: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      'users.id as user_id',
      ...USER_DTO_COLUMNS,
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
}

export type SessionWithUserRow = NonNullable<Awaited<ReturnType<typeof findSessionWithUser>>>;

export async function setSessionExpiry(db: DB, sessionId: string, expiresAt: Date): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();
}

/** The sessions list's "last seen" (issue 13); written at most every SESSION_SEEN_EVERY_MS per session. */
export async function touchSession(db: DB, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: DB, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Deletes the user's sessions, all or all but `exceptSessionId`; returns the ids removed. */
export async function deleteUserSessions(db: DB, userId: string, exceptSessionId?: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(exceptSessionId !== undefined, (q) => q.where('id', '!=', exceptSessionId!))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
