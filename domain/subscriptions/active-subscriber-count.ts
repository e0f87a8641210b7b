import { sql, type RawBuilder } from 'kysely';

/**
 * Active subscribers of the creator whose id is in `creatorIdColumn`: a correlated count served by
 * the subscribers (creator_id, status) index, cheap when the outer query has already limited its rows.
 */
export function activeSubscriberCount(creatorIdColumn: string): RawBuilder<string> {
  return sql<string>`(select count(*) from subscribers active_s where active_s.creator_id = ${sql.ref(creatorIdColumn)} and active_s.status = 'active')`;
}
