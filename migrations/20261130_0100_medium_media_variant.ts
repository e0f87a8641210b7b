import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * A third display size of post images (issue 30 item 4): 'medium', 720 px wide at most, between
 * thumb (320) and web (1080), for what a phone draws a feed-wide picture at (common/image-sources.ts). Files made before it
 * have no 'medium' row and keep working: a srcset lists only the sizes a file has.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table media_files drop constraint media_files_variant_check`.execute(db);
  await sql`alter table media_files add constraint media_files_variant_check check (variant in ('original', 'web', 'medium', 'thumb', 'poster', 'preview'))`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  // their objects stay in storage until the post goes (a down migration does not reach storage)
  await sql`delete from media_files where variant = 'medium'`.execute(db);
  await sql`alter table media_files drop constraint media_files_variant_check`.execute(db);
  await sql`alter table media_files add constraint media_files_variant_check check (variant in ('original', 'web', 'thumb', 'poster', 'preview'))`.execute(db);
}
