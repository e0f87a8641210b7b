import type { DB } from '../../../core/db/kysely';
import { recordIssue } from '../../../domain/forensics/issues.queries';

/** How many (post, viewer) pairs this copy remembers having recorded. */
const REMEMBERED = 20_000;

/**
 * Records that a viewer was handed a marked playlist (forensic_issues), once per post and viewer:
 * the player asks for a media playlist at every start and rendition switch, so this copy
 * remembers the pairs it wrote and skips the write for them (forgetting all when the set is full:
 * a repeated insert is harmless, it changes nothing).
 */
export function issueRecorder(db: DB) {
  const written = new Set<string>();
  return {
    async record(postId: string, viewerId: string): Promise<void> {
      const pair = `${postId}:${viewerId}`;
      if (written.has(pair)) return;
      await recordIssue(db, postId, viewerId);
      if (written.size >= REMEMBERED) written.clear();
      written.add(pair);
    },
  };
}
