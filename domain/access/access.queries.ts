import type { DB } from '../../core/db/kysely';

/** What the access rule needs to know about each of these posts (missing ids are left out). */
export async function findPostAccessFacts(db: DB, postIds: string[]) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('posts')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'ps.profile_visibility'])
    .where('posts.id', 'in', postIds)
    .execute();
}
