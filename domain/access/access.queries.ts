import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../../core/db/kysely';

/** What the access rule needs to know about each of these posts (missing ids are left out). */
export async function findPostAccessFacts(db: DB, postIds: string[]) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('posts')
    .leftJoin('privacy_settings as ps', 'ps.user_id', 'posts.creator_id')
    .select(['posts.id', 'posts.creator_id', 'posts.status', 'posts.is_premium', 'posts.unlock_price_cents', 'posts.unlock_mode', 'ps.profile_visibility'])
    .where('posts.id', 'in', postIds)
    .execute();
}

/** Of these posts, the ones the fan bought (unlocks not revoked by a refund or a dispute): one index lookup per id. */
export async function findUnlockedPostIds(db: DB, fanId: string, postIds: string[]): Promise<string[]> {
  if (postIds.length === 0) return [];
  const rows = await db.selectFrom('post_unlocks').select('post_id').where('fan_id', '=', fanId).where('post_id', 'in', postIds).where('revoked_at', 'is', null).execute();
  return rows.map((r) => r.post_id);
}

/** `findUnlockedPostIds` as SQL, for the post named by `postColumn` (post_unlocks_fan_post). */
export function unlockExists(fanId: string, postColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from post_unlocks pu where pu.fan_id = ${fanId} and pu.post_id = ${sql.ref(postColumn)} and pu.revoked_at is null)`;
}
