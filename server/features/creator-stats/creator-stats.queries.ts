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

/**
 * The creator's takings from the ledger (succeeded payments; payments_creator_created_idx): this
 * and last calendar month (UTC), and the 12 Monday-start weeks up to this one, in one statement.
 */
export async function findEarnings(db: DB, creatorId: string, now: Date) {
  const result = await sql<{ bucket: string; starts: Date; total: string }>`
    with paid as (
      select amount, created_at from payments
      where creator_id = ${creatorId} and status = 'succeeded'
        and created_at >= least(date_trunc('month', ${now}::timestamptz at time zone 'UTC') - interval '1 month',
                                date_trunc('week', ${now}::timestamptz at time zone 'UTC') - interval '11 weeks') at time zone 'UTC'
    ),
    weeks as (
      select generate_series(date_trunc('week', ${now}::timestamptz at time zone 'UTC') - interval '11 weeks',
                             date_trunc('week', ${now}::timestamptz at time zone 'UTC'), interval '1 week') as starts
    )
    select 'week' as bucket, w.starts at time zone 'UTC' as starts, coalesce(sum(p.amount), 0)::numeric(12,2)::text as total
      from weeks w left join paid p on p.created_at >= w.starts at time zone 'UTC' and p.created_at < (w.starts + interval '1 week') at time zone 'UTC'
      group by w.starts
    union all
    select 'this_month', date_trunc('month', ${now}::timestamptz at time zone 'UTC') at time zone 'UTC',
      coalesce(sum(amount) filter (where created_at >= date_trunc('month', ${now}::timestamptz at time zone 'UTC') at time zone 'UTC'), 0)::numeric(12,2)::text from paid
    union all
    select 'last_month', (date_trunc('month', ${now}::timestamptz at time zone 'UTC') - interval '1 month') at time zone 'UTC',
      coalesce(sum(amount) filter (where created_at >= (date_trunc('month', ${now}::timestamptz at time zone 'UTC') - interval '1 month') at time zone 'UTC'
        and created_at < date_trunc('month', ${now}::timestamptz at time zone 'UTC') at time zone 'UTC'), 0)::numeric(12,2)::text from paid
    order by bucket, starts`.execute(db);
  return result.rows;
}
