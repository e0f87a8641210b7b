import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Scheduled posts (issue 29 item 1): a post may wait in 'scheduled' (processed, seen by its owner
 * alone) until `publish_at`, when the maintenance job 'publish-scheduled' publishes it through
 * the lifecycle's publish write. A scheduled post always has its time; the job finds the due ones
 * by the partial index, however many other posts there are.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table posts add column publish_at timestamptz`.execute(db);
  await sql`alter table posts drop constraint posts_status_check`.execute(db);
  await sql`alter table posts add constraint posts_status_check check (status in ('processing', 'draft', 'published', 'failed', 'scheduled'))`.execute(db);
  await sql`alter table posts drop constraint posts_target_status_check`.execute(db);
  await sql`alter table posts add constraint posts_target_status_check check (target_status in ('draft', 'published', 'scheduled'))`.execute(db);
  await sql`alter table posts add constraint posts_publish_at_check check ((status <> 'scheduled' and target_status <> 'scheduled') or publish_at is not null)`.execute(db);
  await sql`create index posts_scheduled_idx on posts (publish_at, id) where status = 'scheduled'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop index posts_scheduled_idx`.execute(db);
  await sql`delete from posts where status = 'scheduled' or target_status = 'scheduled'`.execute(db);
  await sql`alter table posts drop constraint posts_publish_at_check`.execute(db);
  await sql`alter table posts drop constraint posts_target_status_check`.execute(db);
  await sql`alter table posts add constraint posts_target_status_check check (target_status in ('draft', 'published'))`.execute(db);
  await sql`alter table posts drop constraint posts_status_check`.execute(db);
  await sql`alter table posts add constraint posts_status_check check (status in ('processing', 'draft', 'published', 'failed'))`.execute(db);
  await sql`alter table posts drop column publish_at`.execute(db);
}
