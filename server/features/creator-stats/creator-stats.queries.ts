import { sql } from 'kysely';
import type { DB } from '../../../core/db/kysely';
import { activeSubscriptionWhere } from '../../../domain/subscriptions/active';

export const SUBSCRIBERS_PAGE_SIZE = 20;

/** The creator's active subscribers, newest first, keyset on (created_at, id): one query per page. */
export function findActiveSubscribers(db: DB, creatorId: string, after: { at: string; id: string } | null) {
  return db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .innerJoin('profiles as pr', 'pr.id', 's.subscriber_id')
    .select([
      's.id',
      's.created_at',
      sql<string>`to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_at'),
      's.current_period_end',
      's.cancel_at_period_end',
      't.name as tier_name',
      'pr.id as fan_id',
      'pr.username',
      'pr.display_name',
      'pr.avatar_url',
    ])
    .where('t.creator_id', '=', creatorId)
    .where(activeSubscriptionWhere('s'))
    .$if(after !== null, (qb) => qb.where(sql<boolean>`(s.created_at, s.id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(SUBSCRIBERS_PAGE_SIZE + 1)
    .execute();
}

