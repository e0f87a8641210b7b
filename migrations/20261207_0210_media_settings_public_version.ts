import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The media route keeps a post's row in memory under the public data version
 * (server/features/posts/media.service.ts, `mediaRows`), and that row now carries the creator's
 * `media_settings.mark_paid_pictures`: a change of the setting must take a new number, or a copy
 * would keep serving unmarked (or marked) pictures until the row expired.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create trigger media_settings_public_data_version
    after insert or update or delete or truncate on media_settings
    for each statement execute function bump_public_data_version()`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop trigger media_settings_public_data_version on media_settings`.execute(db);
}
