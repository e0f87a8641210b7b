import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema';
import { activeSubscriberCount } from '../../../domain/subscriptions/active-subscriber-count';

/** Profiles hidden from the featured strip (spec part 1 §6). */
const HIDDEN_FROM_FEATURED = ['private', 'hidden'] as const;

/**
 * The featured creators and their active subscriber counts in one statement: the top `limit`
 * creators are chosen first, then one lateral count per chosen row (never a count per creator
 * in the whole table, never a query per card).
 */
export async function findFeaturedCreators(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('profiles')
        .leftJoin('privacy_settings', 'privacy_settings.user_id', 'profiles.id')
        .select([
          'profiles.id',
          'profiles.username',
          'profiles.display_name',
          'profiles.avatar_url',
          'profiles.is_verified',
          'profiles.is_premium',
          'profiles.created_at',
        ])
        .where('profiles.is_creator', '=', true)
        .where((w) =>
          w.or([
            w('privacy_settings.profile_visibility', 'is', null),
            w('privacy_settings.profile_visibility', 'not in', HIDDEN_FROM_FEATURED),
          ]),
        )
        .orderBy('profiles.is_verified', 'desc')
        .orderBy('profiles.is_premium', 'desc')
        .orderBy('profiles.created_at', 'desc')
        .orderBy('profiles.id', 'desc')
        .limit(limit)
        .as('c'),
    )
    .select(['c.id', 'c.username', 'c.display_name', 'c.avatar_url', 'c.is_verified', 'c.is_premium'])
    .select(activeSubscriberCount('c.id').as('subscriber_count'))
    .orderBy('c.is_verified', 'desc')
    .orderBy('c.is_premium', 'desc')
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

/**
 * Makes the user a creator with default media settings (watermark on, centered), in one
 * transaction; idempotent (existing settings are kept). True when the user was not a creator yet.
 */
export async function makeCreator(db: Kysely<Database>, userId: string): Promise<boolean> {
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
