import type { DB } from '../../core/db/kysely';

/** What the new-message mail needs: the message still unread, its sender's names, the recipient's address. */
export function findUnreadMessageForMail(db: DB, messageId: string) {
  return db
    .selectFrom('messages as m')
    .innerJoin('profiles as sp', 'sp.id', 'm.sender_id')
    .innerJoin('users as ru', 'ru.id', 'm.recipient_id')
    .select(['m.recipient_id', 'sp.username as sender_username', 'sp.display_name as sender_display_name', 'ru.email as recipient_email'])
    .where('m.id', '=', messageId)
    .where('m.read_at', 'is', null)
    .executeTakeFirst();
}
