import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * The forensic mark of paid videos and the traces of leaks (issue 49 items 3 and 5, docs/media.md).
 *
 * - `forensic_issues`: every viewer who was handed a marked playlist of a post (its variants A/B
 *   chosen by their code), once per post and viewer. They are a trace's candidates: the code is
 *   read from the leak and compared with theirs.
 * - `leak_traces`: every trace asked for, the log of who asked about which post with which file
 *   (its SHA-256 and size), and what it answered: status, verdict (TraceVerdict,
 *   domain/forensics/verdict.ts), confidence, the buyer named. `leak_key` is the uploaded file while
 *   the trace needs it (removed once it is done).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`
    create table forensic_issues (
      post_id uuid not null references posts(id) on delete cascade,
      viewer_id uuid not null references users(id) on delete cascade,
      first_at timestamptz not null default now(),
      primary key (post_id, viewer_id)
    )
  `.execute(db);
  await sql`
    create table leak_traces (
      id uuid primary key default gen_random_uuid(),
      post_id uuid not null references posts(id) on delete cascade,
      position integer not null default 0 check (position between 0 and 19),
      requested_by uuid references users(id) on delete set null,
      file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
      file_bytes bigint not null check (file_bytes > 0),
      leak_key text,
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
      verdict jsonb,
      confidence double precision check (confidence between 0 and 1),
      identified_user_id uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      check ((status = 'done') = (verdict is not null))
    )
  `.execute(db);
  await sql`create index leak_traces_post on leak_traces (post_id, created_at desc)`.execute(db);
  await sql`create index leak_traces_recent on leak_traces (created_at desc)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table leak_traces`.execute(db);
  await sql`drop table forensic_issues`.execute(db);
}
