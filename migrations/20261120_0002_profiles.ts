import { sql } from 'kysely';
import { PROFILE_VISIBILITIES, WATERMARK_POSITIONS } from '../common/enums';
import { isOneOf, now, withTimestamps, type MigrationDb } from './lib/ddl';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('profiles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('avatar_url', 'text')
    .addColumn('bio', 'text')
    .addColumn('categories', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('is_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_premium', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_creator', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_of_birth', 'date', (c) => c.notNull())
    .addColumn('custom_links', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('social_links', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('upgrade_card_dismissed', 'boolean', (c) => c.notNull().defaultTo(false))
    .$call(withTimestamps)
    .addCheckConstraint('profiles_username_format', sql`username = lower(username) and username ~ '^[a-z0-9._-]{1,30}$'`)
    .addCheckConstraint('profiles_custom_links_array', sql`jsonb_typeof(custom_links) = 'array'`)
    .addCheckConstraint('profiles_social_links_object', sql`jsonb_typeof(social_links) = 'object'`)
    .execute();
  await sql`create unique index profiles_username_lower_key on profiles (lower(username))`.execute(db);
  // Lookups say `username = $1`, which the expression index above cannot serve.
  await db.schema.createIndex('profiles_username_idx').on('profiles').column('username').execute();
  await sql`create index profiles_username_trgm_idx on profiles using gin (lower(username) gin_trgm_ops)`.execute(db);
  // Featured creators walk this index in display order and stop after a few rows.
  await sql`create index profiles_featured_idx on profiles (is_verified desc, is_premium desc, created_at desc, id desc) where is_creator`.execute(db);
  await sql`create index profiles_display_name_trgm_idx on profiles using gin (lower(display_name) gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('privacy_settings')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('profile_visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('show_online_status', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('allow_friend_requests', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('privacy_settings_visibility_check', isOneOf('profile_visibility', PROFILE_VISIBILITIES))
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_notifications', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('push_notifications', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('marketing_emails', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('verification_status')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('is_email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_phone_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_identity_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('media_settings')
    .addColumn('creator_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('watermark_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('watermark_text', 'text')
    .addColumn('watermark_position', 'text', (c) => c.notNull().defaultTo('center'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addCheckConstraint('media_settings_position_check', isOneOf('watermark_position', WATERMARK_POSITIONS))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['media_settings', 'verification_status', 'notification_settings', 'privacy_settings', 'profiles']) {
    await db.schema.dropTable(table).execute();
  }
}
