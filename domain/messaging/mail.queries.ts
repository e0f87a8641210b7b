import type { DB } from '../../core/db/kysely';

/**
 * What the new-message mail needs: how many messages `senderId` sent `recipientId` in the period
 * [from, to) that are still unread, the sender's names and the recipient's address; undefined when
 * either account is gone.
 */
export function findUnreadSummaryForMail(db: DB, recipientId: string, senderId: string, from: Date, to: Date) {
  return db
    .selectFrom('profiles as sp')
    .innerJoin('users as ru', (j) => j.on('ru.id', '=', recipientId))
    .select((eb) => [
      'sp.username as sender_username',
      'sp.display_name as sender_display_name',
      'ru.email as recipient_email',
      eb
        .selectFrom('messages as m')
        .select(eb.fn.countAll<string>().as('n'))
        .where('m.sender_id', '=', senderId)
        .where('m.recipient_id', '=', recipientId)
        .where('m.read_at', 'is', null)
        .where('m.created_at', '>=', from)
        .where('m.created_at', '<', to)
        .as('unread'),
    ])
    .where('sp.id', '=', senderId)
    .executeTakeFirst();
}
