import type { DB } from '../../../core/db/kysely';

/**
 * Makes the user a creator with default media settings (watermark on, centered), in one
 * transaction; idempotent (existing settings are kept). True when the user was not a creator yet.
 */
export async function makeCreator(db: DB, userId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('profiles')
      .set({ is_creator: true, updated_at: new Date() })
      .where('id', '=', userId)
      .where('is_creator', '=', false)
      .executeTakeFirst();
    await trx.insertInto('media_settings').values({ creator_id: userId }).onConflict((oc) => oc.column('creator_id').doNothing()).execute();
    return Number(changed.numUpdatedRows) > 0;
  });
}
