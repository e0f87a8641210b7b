import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The HLS ladder of a chat video (issue 49 item 1, docs/media.md), on the attachment's own row:
 * `ladder` is the ladder as video_ladders holds a post's (renditions and thumbnails, shape:
 * common/ladder.ts), written once by the 'build-attachment-ladder' job when every object is
 * stored; `ladder_keys` every object of it, so deleting the attachment deletes them too
 * (attachmentStoredKeys). No ladder: the bubble plays the MP4.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table message_attachments add column ladder jsonb, add column ladder_keys text[] not null default '{}'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  // their objects stay in storage until the attachment goes (a down migration does not reach storage)
  await sql`alter table message_attachments drop column ladder, drop column ladder_keys`.execute(db);
}
