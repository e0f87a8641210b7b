import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Exports that cannot hang (issues 23 and 24): data_exports.runs counts the times a worker started
 * building the zip, written before it starts, so an export whose worker is killed again and again
 * is ended as 'failed' (with its reason on the screen) instead of staying 'pending' for good.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table data_exports add column runs integer not null default 0`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table data_exports drop column runs`.execute(db);
}
