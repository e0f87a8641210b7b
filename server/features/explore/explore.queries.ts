import { sql, type SqlBool } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import { profileVisibleToAllWhere } from '../../../domain/access/access';
import { containsPattern } from '../posts/posts.queries';
import { activeSubscriberCount } from '../../../domain/subscriptions/active-subscriber-count';

/**
 * Explore's creator cards: creators everyone may see whose username or display name contains
 * `q` (trigram indexes) and who have any of `categories` (profiles_categories_idx), verified
 * first, then premium, then newest; their active subscriber counts by one lateral count per card.
 */
export function findExploreCreators(db: DB, opts: { q: string | null; categories: readonly string[]; limit: number }) {
  const { q, categories } = opts;
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('profiles as pr')
        .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
        .select([
          'pr.id',
          'pr.username',
          'pr.display_name',
          'pr.avatar_url',
          'pr.categories',
          'pr.is_verified',
          'pr.is_premium',
          'pr.created_at',
        ])
        .where('pr.is_creator', '=', true)
        .where(profileVisibleToAllWhere())
        .$if(Boolean(q), (b) =>
          b.where(
            sql<SqlBool>`(lower(pr.username) like lower(${containsPattern(q!)}) or lower(pr.display_name) like lower(${containsPattern(q!)}))`,
          ),
        )
        .$if(categories.length > 0, (b) => b.where(sql<SqlBool>`pr.categories && array[${sql.join(categories)}]::text[]`))
        .orderBy('pr.is_verified', 'desc')
        .orderBy('pr.is_premium', 'desc')
        .orderBy('pr.created_at', 'desc')
        .orderBy('pr.id', 'desc')
        .limit(opts.limit)
        .as('c'),
    )
    .selectAll('c')
    .select(activeSubscriberCount('c.id').as('subscriber_count'))
    .orderBy('c.is_verified', 'desc')
    .orderBy('c.is_premium', 'desc')
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}
