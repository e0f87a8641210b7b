import { type MigrationDb, isOneOf } from './lib/ddl';

/**
 * Hide Account remembers the visibility it replaced (issue 23): showing the account again
 * returns it to public, private or friends as it was, instead of always to public. Accounts
 * hidden before this have nothing stored and come back public, as they did.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('privacy_settings').addColumn('visibility_before_hidden', 'text').execute();
  await db.schema
    .alterTable('privacy_settings')
    .addCheckConstraint('privacy_settings_visibility_before_hidden_check', isOneOf('visibility_before_hidden', ['public', 'private', 'friends']))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('privacy_settings').dropConstraint('privacy_settings_visibility_before_hidden_check').execute();
  await db.schema.alterTable('privacy_settings').dropColumn('visibility_before_hidden').execute();
}
