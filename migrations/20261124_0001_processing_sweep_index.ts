import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Reliability (issue 10): every worker copy looks for posts whose job Redis lost every
 * LOST_JOB_SWEEP_INTERVAL_MS (20 s): the posts 'processing', oldest change first
 * (domain/processing/lost-jobs.queries.ts). A partial index holds only those few rows, so the
 * look costs the same whatever the size of the posts table.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create index posts_processing_idx on posts (updated_at, id) where status = 'processing'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index posts_processing_idx`.execute(db);
}
