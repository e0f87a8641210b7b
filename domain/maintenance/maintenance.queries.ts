import type { DB } from '../../core/db/kysely';

/** The maintenance jobs' reads and writes (worker/jobs/maintenance.ts), beside the processing ones. */

/** Sessions and e-mail tokens past their expiry go; how many of each. */
export async function purgeExpiredCredentials(db: DB, now: Date): Promise<{ sessions: number; tokens: number }> {
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst();
  const tokens = await db.deleteFrom('email_tokens').where('expires_at', '<', now).executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), tokens: Number(tokens.numDeletedRows) };
}

/** Whether the post is still there (its files must then stay). */
export async function postExists(db: DB, postId: string): Promise<boolean> {
  return (await db.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst()) !== undefined;
}
