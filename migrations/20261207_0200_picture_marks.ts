import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The per-buyer mark of paid pictures (issue 49 item 4, docs/media.md).
 *
 * `media_settings.mark_paid_pictures`: the creator's choice (Media settings, "Mark paid pictures
 * with the buyer"), off by default, so nothing changes for a creator who does not turn it on.
 *
 * `picture_mark_issues`: one row per picture (post and file position) and viewer the media route
 * served a marked copy to, written the first time: the random seed the mark was drawn with (the
 * tracer draws it again from it; it is kept nowhere else), the label it read and when. Gone with
 * the post or the viewer's account.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table media_settings add column mark_paid_pictures boolean not null default false`.execute(db);
  await sql`
    create table picture_mark_issues (
      post_id uuid not null references posts(id) on delete cascade,
      position integer not null default 0,
      viewer_id uuid not null references users(id) on delete cascade,
      seed bytea not null check (octet_length(seed) = 32),
      label text not null,
      first_at timestamptz not null default now(),
      primary key (post_id, position, viewer_id)
    )
  `.execute(db);
  await sql`create index picture_mark_issues_viewer_idx on picture_mark_issues (viewer_id)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table picture_mark_issues`.execute(db);
  await sql`alter table media_settings drop column mark_paid_pictures`.execute(db);
}
