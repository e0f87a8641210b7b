import { sql } from 'kysely';
import { isOneOf, now, userRef, withCreatedAt, withId, withTimestamps, type MigrationDb } from './lib/ddl';

/**
 * Direct messages (issue 12).
 * - message_attachments: a chat file from its upload to its processed, privately stored copy
 *   (status processing -> ready | failed), owned by its uploader; at most one message carries it.
 * - messages.client_id: the sender's key for one message, so a repeated send makes no second row;
 *   messages.attachment_id: the message's file.
 * - conversations: one row per user per partner with the conversation's last message, written in
 *   the same transaction as every message, so the chat list is one keyset scan of an index
 *   whatever the number of messages.
 * - user_blocks and message_reports: safety.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('message_attachments')
    .$call(withId)
    .$call((t) => userRef(t, 'owner_id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('processing'))
    .addColumn('original_filename', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    // the uploaded bytes (removed once processed) and the served file
    .addColumn('source_key', 'text')
    .addColumn('storage_key', 'text')
    .addColumn('content_type', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_seconds', 'numeric')
    .addColumn('failure_reason', 'text')
    .$call(withTimestamps)
    .addCheckConstraint('message_attachments_kind_check', isOneOf('kind', ['image', 'video', 'audio', 'pdf', 'document']))
    .addCheckConstraint('message_attachments_status_check', isOneOf('status', ['processing', 'ready', 'failed']))
    .addCheckConstraint('message_attachments_ready_check', sql`status <> 'ready' or storage_key is not null`)
    .execute();
  await db.schema.createIndex('message_attachments_owner_id_idx').on('message_attachments').column('owner_id').execute();

  await db.schema.alterTable('messages').addColumn('client_id', 'text').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('attachment_id', 'uuid', (c) => c.references('message_attachments.id'))
    .execute();
  await sql`alter table messages drop constraint messages_not_empty_check`.execute(db);
  await sql`alter table messages add constraint messages_not_empty_check
    check (btrim(coalesce(content, '')) <> '' or media_key is not null or attachment_id is not null)`.execute(db);
  await sql`alter table messages add constraint messages_client_id_check
    check (client_id is null or client_id ~ '^[A-Za-z0-9_-]{1,64}$')`.execute(db);
  await sql`create unique index messages_sender_client_id_key on messages (sender_id, client_id) where client_id is not null`.execute(db);
  await sql`create unique index messages_attachment_id_key on messages (attachment_id) where attachment_id is not null`.execute(db);
  // unread counts per conversation on a chat list page
  await sql`create index messages_unread_pair_idx on messages (recipient_id, sender_id) where read_at is null`.execute(db);

  await db.schema
    .createTable('conversations')
    .$call((t) => userRef(t, 'user_id'))
    .$call((t) => userRef(t, 'partner_id'))
    .addColumn('last_message_id', 'uuid', (c) => c.references('messages.id').onDelete('set null'))
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('conversations_pkey', ['user_id', 'partner_id'])
    .addCheckConstraint('conversations_not_self_check', sql`user_id <> partner_id`)
    .execute();
  await sql`create index conversations_user_recent_idx on conversations (user_id, last_message_at desc, partner_id desc)`.execute(db);
  await sql`create index conversations_last_message_id_idx on conversations (last_message_id)`.execute(db);
  // conversations that exist already (seeded or sent before this migration)
  await sql`
    insert into conversations (user_id, partner_id, last_message_id, last_message_at)
    select distinct on (p.user_id, p.partner_id) p.user_id, p.partner_id, p.id, p.created_at
    from (
      select sender_id as user_id, recipient_id as partner_id, id, created_at from messages
      union all
      select recipient_id, sender_id, id, created_at from messages
    ) p
    order by p.user_id, p.partner_id, p.created_at desc, p.id desc`.execute(db);

  await db.schema
    .createTable('user_blocks')
    .$call((t) => userRef(t, 'blocker_id'))
    .$call((t) => userRef(t, 'blocked_id'))
    .$call(withCreatedAt)
    .addPrimaryKeyConstraint('user_blocks_pkey', ['blocker_id', 'blocked_id'])
    .addCheckConstraint('user_blocks_not_self_check', sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex('user_blocks_blocked_id_idx').on('user_blocks').column('blocked_id').execute();

  await db.schema
    .createTable('message_reports')
    .$call(withId)
    // the report outlives the message (and its sender's account): the text is kept as reported
    .addColumn('message_id', 'uuid', (c) => c.references('messages.id').onDelete('set null'))
    .$call((t) => userRef(t, 'reporter_id'))
    .addColumn('sender_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('content', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .$call(withTimestamps)
    .addColumn('closed_at', 'timestamptz')
    .addColumn('closed_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addCheckConstraint('message_reports_status_check', isOneOf('status', ['open', 'closed']))
    .addCheckConstraint('message_reports_reason_check', sql`char_length(btrim(reason)) between 1 and 500`)
    .execute();
  await sql`create unique index message_reports_message_reporter_key on message_reports (message_id, reporter_id)`.execute(db);
  await sql`create index message_reports_status_created_idx on message_reports (status, created_at desc, id desc)`.execute(db);
  await db.schema.createIndex('message_reports_reporter_id_idx').on('message_reports').column('reporter_id').execute();
  await db.schema.createIndex('message_reports_sender_id_idx').on('message_reports').column('sender_id').execute();
  await db.schema.createIndex('message_reports_closed_by_idx').on('message_reports').column('closed_by').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_reports').execute();
  await db.schema.dropTable('user_blocks').execute();
  await db.schema.dropTable('conversations').execute();
  await sql`drop index messages_unread_pair_idx`.execute(db);
  await sql`drop index messages_attachment_id_key`.execute(db);
  await sql`drop index messages_sender_client_id_key`.execute(db);
  await sql`alter table messages drop constraint messages_client_id_check`.execute(db);
  await sql`alter table messages drop constraint messages_not_empty_check`.execute(db);
  await db.schema.alterTable('messages').dropColumn('attachment_id').execute();
  await db.schema.alterTable('messages').dropColumn('client_id').execute();
  await sql`alter table messages add constraint messages_not_empty_check
    check (btrim(coalesce(content, '')) <> '' or media_key is not null)`.execute(db);
  await db.schema.dropTable('message_attachments').execute();
}
