import type { DB } from '../../../core/db/kysely';

/** The caller's own ledger rows, newest first (payments_user_created_idx). */
export function findPaymentsOf(db: DB, userId: string, limit = 50) {
  return db
    .selectFrom('payments')
    .select(['id', 'description', 'amount', 'currency', 'status', 'provider', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
