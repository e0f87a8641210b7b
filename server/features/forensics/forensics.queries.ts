import type { DB } from '../../../core/db/kysely';

/** The post a trace is asked about: its creator (who may trace it) and whether it exists. */
export function findTracedPost(db: DB, postId: string) {
  return db.selectFrom('posts').select(['id', 'creator_id']).where('id', '=', postId).executeTakeFirst();
}

const traceColumns = [
  't.id',
  't.post_id',
  't.status',
  't.created_at',
  't.finished_at',
  't.file_sha256',
  't.file_bytes',
  't.verdict',
  't.confidence',
  't.identified_user_id',
  'asker.username as requested_by_username',
  'buyer.username as buyer_username',
  'buyer.display_name as buyer_display_name',
  'p.title as post_title',
  'creator.username as post_creator_username',
] as const;

function traces(db: DB) {
  return db
    .selectFrom('leak_traces as t')
    .leftJoin('profiles as asker', 'asker.id', 't.requested_by')
    .leftJoin('profiles as buyer', 'buyer.id', 't.identified_user_id')
    // the post's name, for the admin log's rows (a list of every post's traces)
    .leftJoin('posts as p', 'p.id', 't.post_id')
    .leftJoin('profiles as creator', 'creator.id', 'p.creator_id')
    .select(traceColumns);
}

/** A post's traces, newest first (the screen shows the last 50). */
export function postTraces(db: DB, postId: string) {
  return traces(db).where('t.post_id', '=', postId).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(50).execute();
}

/** Every post's traces, newest first (the admin area's log). */
export function recentTraces(db: DB) {
  return traces(db).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(50).execute();
}

export type TraceRow = Awaited<ReturnType<typeof postTraces>>[number];
