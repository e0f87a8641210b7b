import { sql } from 'kysely';
import { isUuid } from '../../../common/ids';
import type { DB } from '../../../core/db/kysely';
import { reversalsOf } from '../../../domain/billing/reversal-state';

/** The caller's own ledger rows (charges and their reversals), newest first (payments_user_created_idx). */
export function findPaymentsOf(db: DB, userId: string, limit = 50) {
  return db
    .selectFrom('payments as p')
    .leftJoinLateral(reversalsOf, (join) => join.onTrue())
    .select(['p.id', 'p.description', 'p.amount_cents', 'p.currency', 'p.status', 'p.kind', 'p.provider', 'p.created_at', 'p.receipt_number', 'rv.refunded', 'rv.disputed'])
    .where('p.user_id', '=', userId)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The admin's search (issue 22 §4): charges whose fan (username or e-mail) or creator (username)
 * is `query`, or whose id or provider reference it is, newest first, with their reversals and the
 * refunds still waiting for the provider.
 */
export function searchCharges(db: DB, query: string, limit = 50) {
  const name = query.replace(/^@/, '').toLowerCase();
  return db
    .selectFrom('payments as p')
    .leftJoin('users as fu', 'fu.id', 'p.user_id')
    .leftJoin('profiles as fp', 'fp.id', 'p.user_id')
    .leftJoin('profiles as cp', 'cp.id', 'p.creator_id')
    .leftJoinLateral(reversalsOf, (join) => join.onTrue())
    .select([
      'p.id', 'p.description', 'p.amount_cents', 'p.status', 'p.kind', 'p.provider', 'p.provider_ref', 'p.created_at',
      'fp.username as fan_username', 'fu.email as fan_email', 'cp.username as creator_username', 'rv.refunded', 'rv.disputed',
      sql<string>`coalesce((select sum(q.amount_cents) from refund_requests q where q.payment_id = p.id and q.completed_at is null), 0)::text`.as('pending'),
    ])
    .where('p.kind', '=', 'charge')
    .where((eb) =>
      eb.or([
        // usernames and e-mails are stored lower-case
        eb('p.user_id', 'in', eb.selectFrom('profiles').select('id').where('username', '=', name)),
        eb('p.user_id', 'in', eb.selectFrom('users').select('id').where('email', '=', name)),
        eb('p.creator_id', 'in', eb.selectFrom('profiles').select('id').where('username', '=', name)),
        eb('p.provider_ref', '=', query),
        ...(isUuid(query) ? [eb('p.id', '=', query)] : []),
      ]),
    )
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}
