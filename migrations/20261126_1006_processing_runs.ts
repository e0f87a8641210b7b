import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Media runs that cannot destroy each other (issue 24 item 1) and chat attachments that cannot
 * pile up (issue 23 item 1).
 *
 * - posts and message_attachments: `processing_run` (the run of the worker that holds the item,
 *   null when none does) and `processing_heartbeat_at` (renewed by that run while it works). A
 *   second run of the same item waits while the heartbeat is fresh, and the lost-job sweep leaves
 *   such items alone; a run's files are stored under its own run id, so a losing run deletes only
 *   its own. `processing_keys`: the files the holding run is writing, noted before each is
 *   written, so that the run taking over from a dead one deletes what it left.
 * - message_attachments (created_at) where unsent: the sweep that deletes attachments never sent
 *   in a message reads the oldest first.
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const table of ['posts', 'message_attachments'] as const) {
    await db.schema
      .alterTable(table)
      .addColumn('processing_run', 'uuid')
      .addColumn('processing_heartbeat_at', 'timestamptz')
      .addColumn('processing_keys', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
      .execute();
  }
  await sql`create index message_attachments_created_at_idx on message_attachments (created_at)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index message_attachments_created_at_idx`.execute(db);
  for (const table of ['posts', 'message_attachments'] as const) {
    await db.schema.alterTable(table).dropColumn('processing_run').dropColumn('processing_heartbeat_at').dropColumn('processing_keys').execute();
  }
}
