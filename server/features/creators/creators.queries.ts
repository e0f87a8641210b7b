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

/** What a creator's first steps read (issue 47 item 2): one statement. */
export function findFirstSteps(db: DB, userId: string) {
  return db
    .selectFrom('profiles as pr')
    .leftJoin('verification_status as v', 'v.user_id', 'pr.id')
    .leftJoin('payout_accounts as pa', 'pa.user_id', 'pr.id')
    .select((eb) => [
      'v.is_identity_verified',
      'v.identity_test_verified_at',
      'pa.status as payout_status',
      eb.exists(eb.selectFrom('subscription_tiers as t').select('t.id').whereRef('t.creator_id', '=', 'pr.id').where('t.archived_at', 'is', null)).as('has_tier'),
      eb.exists(eb.selectFrom('posts as p').select('p.id').whereRef('p.creator_id', '=', 'pr.id').where('p.status', '=', 'published')).as('has_post'),
    ])
    .where('pr.id', '=', userId)
    .executeTakeFirst();
}
