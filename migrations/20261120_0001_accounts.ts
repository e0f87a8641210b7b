import { sql } from 'kysely';
import { EMAIL_TOKEN_PURPOSES, USER_ROLES } from '../common/enums';
import { isOneOf, userRef, withCreatedAt, withId, withTimestamps, type MigrationDb } from './lib/ddl';

export async function up(db: MigrationDb): Promise<void> {
  // Trigram indexes on profiles (next migration) need it; it ships with postgresql-contrib.
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('users')
    .$call(withId)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .$call(withTimestamps)
    .addUniqueConstraint('users_email_key', ['email'])
    // stored lower-cased so the unique constraint is case-insensitive and lookups use it
    .addCheckConstraint('users_email_lowercase', sql`email = lower(email)`)
    .addCheckConstraint('users_role_check', isOneOf('role', USER_ROLES))
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .$call(withCreatedAt)
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .$call(withCreatedAt)
    .addCheckConstraint('email_tokens_purpose_check', isOneOf('purpose', EMAIL_TOKEN_PURPOSES))
    .execute();
  await db.schema.createIndex('email_tokens_user_id_idx').on('email_tokens').column('user_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
  await sql`drop extension if exists pg_trgm`.execute(db);
}
