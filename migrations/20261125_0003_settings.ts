import { sql } from 'kysely';
import { now, type MigrationDb } from './lib/ddl';

/**
 * Settings (issue 13, part A).
 * - content_settings: a creator's defaults for new uploads (NSFW, paid) and whether fans may
 *   comment on their posts. A missing row means the defaults (off, off, comments open).
 * - profiles.avatar_pending_id: the avatar upload the worker is re-encoding (null when none), so
 *   an older upload finishing late never replaces a newer one, and the screen knows to wait;
 *   profiles.avatar_failure: why the last upload was refused by the worker.
 * - verification_status.is_email_verified was never set: every confirmed address counts now
 *   (confirming sets it from here on).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('content_settings')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('default_nsfw', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('default_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comments_open', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema.alterTable('profiles').addColumn('avatar_pending_id', 'uuid').execute();
  await db.schema.alterTable('profiles').addColumn('avatar_failure', 'text').execute();

  await sql`insert into verification_status (user_id, is_email_verified)
    select id, true from users where email_verified_at is not null
    on conflict (user_id) do update set is_email_verified = true, updated_at = now()`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('avatar_failure').execute();
  await db.schema.alterTable('profiles').dropColumn('avatar_pending_id').execute();
  await db.schema.dropTable('content_settings').execute();
}
