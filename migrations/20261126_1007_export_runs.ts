import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Exports that cannot hang (issues 23 and 24): data_exports.runs counts the times a worker started
 * building the zip, written before it starts, so an export whose worker is killed again and again
 * is ended as 'failed' (with its reason on the screen) instead of staying 'pending' for good.
 * Work left pending by the version before the outbox gets its outbox row, so the relay carries it
 * over: exports still 'pending' (now built on the `exports` queue) and files still listed in
 * storage_deletions.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table data_exports add column runs integer not null default 0`.execute(db);
  await sql`insert into outbox (queue, name, job_id, data)
    select 'exports', 'build-data-export', 'data-export-' || id, jsonb_build_object('exportId', id)
    from data_exports where status = 'pending'
    on conflict (job_id) do nothing`.execute(db);
  await sql`insert into outbox (queue, name, job_id, data, options)
    select distinct 'maintenance', 'delete-user-files', 'delete-user-files-' || batch, jsonb_build_object('batch', batch), '{"removeOnComplete":true}'::jsonb
    from storage_deletions
    on conflict (job_id) do nothing`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table data_exports drop column runs`.execute(db);
}
