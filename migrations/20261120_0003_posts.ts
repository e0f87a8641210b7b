import { sql } from 'kysely';
import { MEDIA_KINDS, MEDIA_VARIANTS, POST_STATUSES } from '../common/enums';
import { isOneOf, userRef, withCreatedAt, withId, withTimestamps, type MigrationDb } from './lib/ddl';

export async function up(db: MigrationDb): Promise<void> {
  // array_to_string is only STABLE (it depends on the element type's output function), which a
  // generated column refuses; for text[] the result cannot change, so this wrapper may say IMMUTABLE.
  await sql`
    create function immutable_array_to_string(text[], text) returns text
    language sql immutable strict parallel safe
    as $$ select pg_catalog.array_to_string($1, $2) $$`.execute(db);

  await db.schema
    .createTable('posts')
    .$call(withId)
    .$call((t) => userRef(t, 'creator_id'))
    .addColumn('title', 'text')
    .addColumn('post_text', 'text')
    .addColumn('hashtags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('is_premium', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_nsfw', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('target_status', 'text', (c) => c.notNull())
    .addColumn('media_kind', 'text')
    .addColumn('original_filename', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('optimistic_id', 'text')
    // hashtags weigh more than body text so a tag match ranks first
    .addColumn('search', sql`tsvector`, (c) =>
      c
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english'::regconfig, coalesce(post_text, '')), 'B')
            || setweight(to_tsvector('english'::regconfig, coalesce(immutable_array_to_string(hashtags, ' '), '')), 'A')`,
        )
        .stored()
        .notNull(),
    )
    .$call(withTimestamps)
    .addColumn('published_at', 'timestamptz')
    .addCheckConstraint('posts_status_check', isOneOf('status', POST_STATUSES))
    .addCheckConstraint('posts_target_status_check', isOneOf('target_status', ['draft', 'published']))
    .addCheckConstraint('posts_media_kind_check', isOneOf('media_kind', MEDIA_KINDS))
    .execute();
  await sql`create index posts_feed_idx on posts (created_at desc, id desc) where status = 'published'`.execute(db);
  await sql`create index posts_creator_idx on posts (creator_id, status, created_at desc, id desc)`.execute(db);
  await sql`create index posts_search_idx on posts using gin (search)`.execute(db);

  await db.schema
    .createTable('media_files')
    .$call(withId)
    .addColumn('post_id', 'uuid', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_seconds', 'numeric')
    .$call(withCreatedAt)
    .addUniqueConstraint('media_files_post_variant_key', ['post_id', 'variant'])
    .addCheckConstraint('media_files_variant_check', isOneOf('variant', MEDIA_VARIANTS))
    .addCheckConstraint('media_files_byte_size_check', sql`byte_size >= 0`)
    .addCheckConstraint('media_files_dimensions_check', sql`width > 0 and height > 0`)
    .addCheckConstraint('media_files_duration_check', sql`duration_seconds >= 0`)
    .execute();

  await db.schema
    .createTable('post_likes')
    .addColumn('post_id', 'uuid', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .$call((t) => userRef(t, 'user_id'))
    .$call(withCreatedAt)
    .addPrimaryKeyConstraint('post_likes_pkey', ['post_id', 'user_id'])
    .execute();
  await db.schema.createIndex('post_likes_user_id_idx').on('post_likes').column('user_id').execute();

  await db.schema
    .createTable('comments')
    .$call(withId)
    .addColumn('post_id', 'uuid', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('parent_id', 'uuid', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('comment_text', 'text', (c) => c.notNull())
    .$call(withTimestamps)
    .addCheckConstraint(
      'comments_text_check',
      sql`btrim(comment_text) <> '' and char_length(comment_text) <= 2000`,
    )
    .execute();
  await db.schema.createIndex('comments_post_idx').on('comments').columns(['post_id', 'created_at', 'id']).execute();
  // the two below serve the cascades (reply and account deletion), not a screen
  await sql`create index comments_parent_id_idx on comments (parent_id) where parent_id is not null`.execute(db);
  await db.schema.createIndex('comments_user_id_idx').on('comments').column('user_id').execute();

  await db.schema
    .createTable('bookmarks')
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('post_id', 'uuid', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .$call(withCreatedAt)
    .addPrimaryKeyConstraint('bookmarks_pkey', ['user_id', 'post_id'])
    .execute();
  await sql`create index bookmarks_user_created_idx on bookmarks (user_id, created_at desc)`.execute(db);
  await db.schema.createIndex('bookmarks_post_id_idx').on('bookmarks').column('post_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['bookmarks', 'comments', 'post_likes', 'media_files', 'posts']) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function immutable_array_to_string(text[], text)`.execute(db);
}
