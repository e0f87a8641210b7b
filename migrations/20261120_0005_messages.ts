import { sql } from 'kysely';
import { userRef, withCreatedAt, withId, type MigrationDb } from './lib/ddl';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('messages')
    .$call(withId)
    .$call((t) => userRef(t, 'sender_id'))
    .$call((t) => userRef(t, 'recipient_id'))
    .addColumn('content', 'text')
    .addColumn('media_key', 'text')
    .addColumn('media_type', 'text')
    // a reply survives the deletion of the message it quoted
    .addColumn('reply_to_id', 'uuid', (c) => c.references('messages.id').onDelete('set null'))
    .$call(withCreatedAt)
    .addColumn('edited_at', 'timestamptz')
    .addColumn('read_at', 'timestamptz')
    .addCheckConstraint('messages_not_empty_check', sql`btrim(coalesce(content, '')) <> '' or media_key is not null`)
    .addCheckConstraint('messages_not_self_check', sql`sender_id <> recipient_id`)
    .execute();
  // one index serves a conversation in either direction
  await sql`
    create index messages_pair_idx on messages
      (least(sender_id, recipient_id), greatest(sender_id, recipient_id), created_at desc, id desc)`.execute(db);
  await sql`create index messages_unread_idx on messages (recipient_id) where read_at is null`.execute(db);
  // chat list ("my conversations") and the account-deletion cascades
  await sql`create index messages_sender_created_idx on messages (sender_id, created_at desc)`.execute(db);
  await sql`create index messages_recipient_created_idx on messages (recipient_id, created_at desc)`.execute(db);
  await sql`create index messages_reply_to_id_idx on messages (reply_to_id) where reply_to_id is not null`.execute(db);

  await db.schema
    .createTable('message_reactions')
    .$call(withId)
    .addColumn('message_id', 'uuid', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .$call(withCreatedAt)
    .addUniqueConstraint('message_reactions_message_user_emoji_key', ['message_id', 'user_id', 'emoji'])
    .addCheckConstraint('message_reactions_emoji_check', sql`char_length(emoji) between 1 and 32`)
    .execute();
  await db.schema.createIndex('message_reactions_user_id_idx').on('message_reactions').column('user_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_reactions').execute();
  await db.schema.dropTable('messages').execute();
}
