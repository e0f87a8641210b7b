import type { DB } from '../../../core/db/kysely';

/** The SQL of "Download my data" (account.service.ts: listExports, requestExport). */

export const EXPORT_COLUMNS = ['id', 'status', 'created_at', 'expires_at', 'byte_size', 'failure_reason'] as const;

/** The user's exports not expired yet, newest first. */
export function findCurrentExports(db: DB, userId: string, now: Date, limit: number) {
  return db
    .selectFrom('data_exports')
    .select(EXPORT_COLUMNS)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** One export request at a time per user: the user's row is the lock (in the request's transaction). */
export async function lockUserForExport(trx: DB, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
}

/** An export of the user's made after `since` that did not fail (the cooldown's test). */
export function findRecentExport(trx: DB, userId: string, since: Date) {
  return trx
    .selectFrom('data_exports')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '<>', 'failed')
    .where('created_at', '>', since)
    .executeTakeFirst();
}

/** Deletes every export of the user; their stored files, for the files' job. */
export function deleteExportsOf(trx: DB, userId: string) {
  return trx.deleteFrom('data_exports').where('user_id', '=', userId).returning(['id', 'storage_key']).execute();
}

export function insertExport(trx: DB, userId: string, expiresAt: Date) {
  return trx.insertInto('data_exports').values({ user_id: userId, expires_at: expiresAt }).returning(EXPORT_COLUMNS).executeTakeFirstOrThrow();
}
