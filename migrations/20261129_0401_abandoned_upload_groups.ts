import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Abandoned upload groups (issue 29): the files of a post of several that never all arrived wait
 * in `uploads` with no post; the hourly 'expire-uploads' job finds the old ones by this index
 * (only such rows are in it, so it stays small however many uploads there were).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index uploads_waiting_group_idx on uploads (created_at) where upload_group is not null and post_id is null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index uploads_waiting_group_idx`.execute(db);
}
