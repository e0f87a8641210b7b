import type { DB } from '../../core/db/kysely';

/**
 * Who was handed a marked playlist of a post (forensic_issues, docs/media.md): the candidates a
 * trace compares the leak's code with. Written by the playlists (server), read by the trace (worker).
 */

/** Records the viewer once per post (a second playlist changes nothing). */
export async function recordIssue(db: DB, postId: string, viewerId: string): Promise<void> {
  await db.insertInto('forensic_issues').values({ post_id: postId, viewer_id: viewerId }).onConflict((oc) => oc.columns(['post_id', 'viewer_id']).doNothing()).execute();
}

/** Every viewer handed a marked playlist of the post. */
export async function issuedViewers(db: DB, postId: string): Promise<string[]> {
  const rows = await db.selectFrom('forensic_issues').select('viewer_id').where('post_id', '=', postId).orderBy('viewer_id').execute();
  return rows.map((r) => r.viewer_id);
}
