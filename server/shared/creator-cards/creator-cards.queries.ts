import { sql, type SqlBool } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import { listedCreatorWhere } from '../../../domain/access/listing';
import { personColumns } from '../../../domain/people/person-columns';
import { activeSubscriberCount } from '../../../domain/subscriptions/active';
import { containsPattern } from '../contains-pattern';

export interface CreatorCardFilter {
  /** contained in the username or display name (trigram indexes); null for any */
  q: string | null;
  /** any of these (profiles_categories_idx); empty for any */
  categories: readonly string[];
  limit: number;
}

/**
 * The creator cards of the landing page's featured strip (no filter) and of Explore (its search
 * and chips) in one statement: the creators who may be listed (domain/access/listing.ts),
 * verified first, then premium, then longest-standing (migrations/20261128_0701_featured_order.ts),
 * the top `limit` chosen first and then one correlated
 * active-subscriber count per chosen row (never a count per creator in the whole table, never a
 * query per card).
 */
export function findCreatorCards(db: DB, filter: CreatorCardFilter) {
  const { q, categories } = filter;
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('profiles as pr')
        .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
        .select([
          ...personColumns('pr'),
          'pr.categories',
          'pr.is_verified',
          'pr.created_at',
        ])
        .where(listedCreatorWhere())
        .$if(Boolean(q), (b) =>
          b.where(
            sql<SqlBool>`(lower(pr.username) like lower(${containsPattern(q!)}) or lower(pr.display_name) like lower(${containsPattern(q!)}))`,
          ),
        )
        .$if(categories.length > 0, (b) => b.where(sql<SqlBool>`pr.categories && array[${sql.join(categories)}]::text[]`))
        .orderBy('pr.is_verified', 'desc')
        .orderBy('pr.is_premium', 'desc')
        .orderBy('pr.created_at')
        .orderBy('pr.id')
        .limit(filter.limit)
        .as('c'),
    )
    .selectAll('c')
    .select(activeSubscriberCount('c.id').as('subscriber_count'))
    .orderBy('c.is_verified', 'desc')
    .orderBy('c.is_premium', 'desc')
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
}
