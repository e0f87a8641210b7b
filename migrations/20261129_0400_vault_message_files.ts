import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Paid messages from the media vault (issue 29 item 3). A message attachment taken from the vault
 * is a copy of the vault file's stored object under the attachment's own key (so that deleting
 * either never takes the other's file), and `vault_key` names the vault object it was copied from:
 * the vault says in which messages a file was sent. Null for an uploaded attachment.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table message_attachments add column vault_key text`.execute(db);
  await sql`create index message_attachments_vault_key_idx on message_attachments (vault_key) where vault_key is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index message_attachments_vault_key_idx`.execute(db);
  await sql`alter table message_attachments drop column vault_key`.execute(db);
}
