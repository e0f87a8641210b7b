import type { DB } from '../../core/db/kysely';

/** One of the owner's attachments, with whether a message or a message to many uses it already (each file is sent once); undefined when unknown or someone else's. */
export function findOwnAttachment(db: DB, ownerId: string, attachmentId: string) {
  return db
    .selectFrom('message_attachments as a')
    .select([
      'a.id',
      'a.kind',
      'a.status',
      (eb) =>
        eb
          .or([
            eb.exists(eb.selectFrom('messages').select('id').whereRef('attachment_id', '=', 'a.id')),
            eb.exists(eb.selectFrom('mass_messages').select('id').whereRef('attachment_id', '=', 'a.id')),
          ])
          .as('used'),
    ])
    .where('a.id', '=', attachmentId)
    .where('a.owner_id', '=', ownerId)
    .executeTakeFirst();
}
