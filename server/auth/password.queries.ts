import type { DB } from '../../core/db/kysely';

/**
 * The account's password hash, read and written by every feature that asks for the password
 * again or sets a new one (sign-in's reset, Security's change, the account's destructive actions).
 */

/** The account's password hash: changing the password and the account's destructive actions ask for it again. */
export async function findPasswordHash(db: DB, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash;
}

export async function updatePasswordHash(db: DB, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}
