import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The HLS ladder of a post's video (issue 49, docs/media.md): one row per video file of a post,
 * written once by the 'build-ladder' job when every file of the ladder is stored. `renditions`
 * lists each rung (size, bandwidth, codecs, init segment, segments with their durations),
 * `thumbnails` the seek-preview strip; `storage_keys` every stored object, so a deleted post's
 * files all go (findStorageKeys). No row: the player plays the MP4 (the ladder is not made yet).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    create table video_ladders (
      post_id uuid not null references posts(id) on delete cascade,
      position integer not null default 0,
      renditions jsonb not null,
      thumbnails jsonb,
      storage_keys text[] not null,
      created_at timestamptz not null default now(),
      primary key (post_id, position)
    )
  `.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  // their objects stay in storage until the post goes (a down migration does not reach storage)
  await sql`drop table video_ladders`.execute(db);
}
