import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema';

type Db = Kysely<Database>;

/** The user's live sessions, most recently seen first (a handful per user: no paging needed). */
export function listSessions(db: Db, userId: string, now: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'public_id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
}

/** Deletes one of the user's sessions by its public id; returns the row id (for its sockets), or undefined. */
export async function deleteSessionOfUser(db: Db, userId: string, publicId: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('public_id', '=', publicId)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

