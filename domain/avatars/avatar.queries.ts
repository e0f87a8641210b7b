import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * The avatar pipeline's rows (worker/jobs/avatar.ts). A profile's `avatar_pending_id` names the
 * one upload that may still become its avatar: an older upload finishing late changes nothing.
 */
export function findAvatarState(db: DB, userId: string) {
  return db.selectFrom('profiles').select(['avatar_url', 'avatar_pending_id']).where('id', '=', userId).executeTakeFirst();
}

/**
 * Makes the re-encoded upload the avatar, if it is still the pending one; returns the avatar it
 * replaced (whose file can go), or undefined when superseded or the account is gone.
 */
export async function completeAvatar(db: DB, userId: string, uploadId: string, url: string) {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('profiles')
      .select('avatar_url')
      .where('id', '=', userId)
      .where('avatar_pending_id', '=', uploadId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return undefined;
    await trx
      .updateTable('profiles')
      .set({ avatar_url: url, avatar_pending_id: null, avatar_failure: null, updated_at: sql<Date>`now()` })
      .where('id', '=', userId)
      .execute();
    return { previousUrl: current.avatar_url };
  });
}

/** The pending upload was refused by the worker: the reason is kept for the settings screen. */
export function failAvatar(db: DB, userId: string, uploadId: string, reason: string) {
  return db
    .updateTable('profiles')
    .set({ avatar_pending_id: null, avatar_failure: reason, updated_at: sql<Date>`now()` })
    .where('id', '=', userId)
    .where('avatar_pending_id', '=', uploadId)
    .executeTakeFirst();
}
