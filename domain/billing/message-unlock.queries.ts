import type { DB } from '../../core/db/kysely';
import { messageUnlockedBy } from '../access/messaging.queries';

/** The fan's charge for the message, if any, and whether it still holds (no refund, no open dispute). */
export function findUnlockCharge(db: DB, userId: string, messageId: string) {
  return db
    .selectFrom('payments as p')
    .select(['p.id', 'p.amount_cents', messageUnlockedBy('p.message_id', 'p.user_id').as('holds')])
    .where('p.user_id', '=', userId)
    .where('p.message_id', '=', messageId)
    .where('p.purpose', '=', 'message_unlock')
    .where('p.kind', '=', 'charge')
    .executeTakeFirst();
}
