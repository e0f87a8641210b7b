import { isOneOf, withCreatedAt, withId, type MigrationDb } from './lib/ddl';

/**
 * Reports that can be acted on (issue 23 §8).
 * - message_reports: the reported file copied into storage the report owns (`evidence_key`, its
 *   type, kind and name), so the sender deleting the message removes no evidence; `resolution`
 *   says what the admin did when closing it.
 * - report_views: every time an admin opened a report's evidence (who, which, when).
 * - users.suspended_at: a suspended account cannot sign in and has no sessions.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('message_reports')
    .addColumn('evidence_key', 'text')
    .addColumn('evidence_type', 'text')
    .addColumn('evidence_kind', 'text')
    .addColumn('evidence_name', 'text')
    .addColumn('resolution', 'text', (c) => c.check(isOneOf('resolution', ['dismissed', 'content-removed', 'account-suspended'])))
    .execute();

  await db.schema
    .createTable('report_views')
    .$call(withId)
    .addColumn('report_id', 'uuid', (c) => c.notNull().references('message_reports.id').onDelete('cascade'))
    // the log outlives the admin's account
    .addColumn('admin_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .$call(withCreatedAt)
    .execute();
  await db.schema.createIndex('report_views_report_idx').on('report_views').columns(['report_id', 'created_at']).execute();

  await db.schema.alterTable('users').addColumn('suspended_at', 'timestamptz').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
  await db.schema.dropTable('report_views').execute();
  await db.schema
    .alterTable('message_reports')
    .dropColumn('resolution')
    .dropColumn('evidence_name')
    .dropColumn('evidence_kind')
    .dropColumn('evidence_type')
    .dropColumn('evidence_key')
    .execute();
}
