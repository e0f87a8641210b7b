import { sql } from 'kysely';
import { MEDIA_KINDS } from '../common/enums';
import { isOneOf, withTimestamps, type MigrationDb } from './lib/ddl';

/**
 * Several files in one post (issue 29 item 2). A post's stored variants gain the file's
 * `position` (0 is the first file: every post made before keeps its rows as file 0, so nothing
 * is moved). A post of several files has one `post_files` row per file with its own processing
 * state: the post publishes when every row is 'ready', and a file that fails keeps the others.
 * The uploads of one post share a `upload_group`: the post is made when the last of them arrives.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table media_files add column position smallint not null default 0`.execute(db);
  await sql`alter table media_files add constraint media_files_position_check check (position between 0 and 19)`.execute(db);
  await sql`alter table media_files drop constraint media_files_post_variant_key`.execute(db);
  await sql`alter table media_files add constraint media_files_post_position_variant_key unique (post_id, position, variant)`.execute(db);

  await db.schema
    .createTable('post_files')
    .addColumn('post_id', 'uuid', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull())
    .addColumn('media_kind', 'text', (c) => c.notNull())
    .addColumn('original_filename', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('processing'))
    .addColumn('failure_reason', 'text')
    .$call(withTimestamps)
    .addPrimaryKeyConstraint('post_files_pkey', ['post_id', 'position'])
    .addCheckConstraint('post_files_position_check', sql`position between 0 and 19`)
    .addCheckConstraint('post_files_status_check', isOneOf('status', ['processing', 'ready', 'failed']))
    .addCheckConstraint('post_files_media_kind_check', isOneOf('media_kind', MEDIA_KINDS))
    .execute();

  // several uploads make one post: the post id is no longer one upload's
  await sql`alter table uploads drop constraint uploads_post_id_key`.execute(db);
  await sql`create index uploads_post_id_idx on uploads (post_id) where post_id is not null`.execute(db);
  await sql`alter table uploads add column upload_group text`.execute(db);
  await sql`alter table uploads add column group_position smallint`.execute(db);
  await sql`alter table uploads add column group_size smallint`.execute(db);
  await sql`alter table uploads add column source_key text`.execute(db);
  await sql`alter table uploads add constraint uploads_group_check check ((upload_group is null) = (group_position is null) and (upload_group is null) = (group_size is null) and group_position between 0 and 19 and group_size between 2 and 20)`.execute(db);
  await sql`create unique index uploads_group_position_key on uploads (user_id, upload_group, group_position) where upload_group is not null`.execute(db);
  // the media vault: a file taken into a new post is the same stored object (its rows share the key)
  await sql`create index media_files_storage_key_idx on media_files (storage_key)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index media_files_storage_key_idx`.execute(db);
  await sql`drop index uploads_group_position_key`.execute(db);
  await sql`alter table uploads drop constraint uploads_group_check`.execute(db);
  for (const column of ['source_key', 'group_size', 'group_position', 'upload_group']) {
    await sql`alter table uploads drop column ${sql.ref(column)}`.execute(db);
  }
  await sql`drop index uploads_post_id_idx`.execute(db);
  await db.schema.dropTable('post_files').execute();
  await sql`delete from media_files where position > 0`.execute(db);
  await sql`alter table media_files drop constraint media_files_post_position_variant_key`.execute(db);
  await sql`alter table media_files add constraint media_files_post_variant_key unique (post_id, variant)`.execute(db);
  await sql`alter table media_files drop constraint media_files_position_check`.execute(db);
  await sql`alter table media_files drop column position`.execute(db);
}
