import { sql } from 'kysely';
import { userRef, withCreatedAt, type MigrationDb } from './lib/ddl';

/**
 * Finished tus uploads, one row per upload id: the row is written in the same transaction as
 * the post the upload became, and its primary key is what makes finishing idempotent (a retried
 * or repeated finish finds the row and answers with the same post). It also lets a client that
 * lost the last response ask (HEAD) after the incoming file is gone: the upload is complete.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call((t) => userRef(t, 'user_id'))
    // the post may be deleted later; the upload stays finished (a resume must not make a new post)
    .addColumn('post_id', 'uuid', (c) => c.unique().references('posts.id').onDelete('set null'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .$call(withCreatedAt)
    .addCheckConstraint('uploads_id_check', sql`char_length(id) between 1 and 100`)
    .addCheckConstraint('uploads_byte_size_check', sql`byte_size >= 0`)
    .execute();
  await db.schema.createIndex('uploads_user_id_idx').on('uploads').column('user_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
