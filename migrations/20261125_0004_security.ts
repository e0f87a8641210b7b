import { sql } from 'kysely';
import { isOneOf, now, userRef, withCreatedAt, withId, type MigrationDb } from './lib/ddl';

/**
 * Security and the account lifecycle (issue 13, part B).
 * - totp_credentials: one TOTP factor per user; `enabled_at` null while enrolment waits for its
 *   first code. `last_used_step` refuses a code used once already (a replayed code).
 * - recovery_codes: SHA-256 of each one-time recovery code; `used_at` once spent.
 * - sessions: `public_id` is what the sessions list shows and revokes by (the row id is the
 *   token's hash and never leaves the server); `last_seen_at` is touched at most every few minutes.
 * - data_exports: a user's "Download my data" zips, served to their owner until `expires_at`.
 * - storage_deletions: files whose rows are gone (an account or its data deleted), written in the
 *   same transaction as the deletion and removed by a queued, retried job: no file is forgotten
 *   when Redis or the worker is away at that moment. `batch` names the job (no foreign key: the
 *   user it came from is gone).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('totp_credentials')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'bytea', (c) => c.notNull())
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('last_used_step', 'bigint')
    .$call(withCreatedAt)
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .$call(withId)
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .$call(withCreatedAt)
    .addUniqueConstraint('recovery_codes_user_code_key', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .alterTable('sessions')
    .addColumn('public_id', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`).unique())
    .execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(now)).execute();

  await db.schema
    .createTable('data_exports')
    .$call(withId)
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('storage_key', 'text')
    .addColumn('byte_size', 'bigint')
    .addColumn('failure_reason', 'text')
    .$call(withCreatedAt)
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('data_exports_status_check', isOneOf('status', ['pending', 'ready', 'failed']))
    .execute();
  await db.schema.createIndex('data_exports_user_created_idx').on('data_exports').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('data_exports_expires_at_idx').on('data_exports').column('expires_at').execute();

  await db.schema
    .createTable('storage_deletions')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('batch', 'text', (c) => c.notNull())
    .$call(withCreatedAt)
    .execute();
  await db.schema.createIndex('storage_deletions_batch_idx').on('storage_deletions').column('batch').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('storage_deletions').execute();
  await db.schema.dropTable('data_exports').execute();
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
  await db.schema.alterTable('sessions').dropColumn('public_id').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('totp_credentials').execute();
}
