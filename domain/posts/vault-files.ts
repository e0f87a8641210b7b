import type { VaultFileRef } from '../../common/vault-schemas';
import type { DB } from '../../core/db/kysely';
import { queueStoredFileDeletion } from '../files/file-deletions';
import { noPostEffects, type PostEffects } from './effects';
import { removePostFile } from './lifecycle.queries';
import { findPostsUsingKey, findVaultKey, unusedKeys } from './vault.queries';

export type VaultDeletion =
  | { outcome: 'deleted'; effects: PostEffects; removedFrom: number }
  | { outcome: 'not-found' }
  /** the file is a post's only file: the post is deleted instead (these are the posts) */
  | { outcome: 'only-file'; posts: { id: string; title: string | null; text: string | null }[] };

/**
 * Deletes a file from the creator's vault (issue 29 item 3), in one transaction. A vault file is
 * one stored object that several posts may hold (a post made from the vault shares it):
 * - it leaves every post that holds it, draft, scheduled or published alike; the files after it
 *   move up one place and open pages of the post hear `post:updated`;
 * - unless it is the only file of one of those posts: then nothing changes, and the creator is
 *   told which posts to delete instead (a post is never left without a file);
 * - messages that carried it keep their own copy (a fan who paid for one keeps it);
 * - its stored variants are listed for the durable 'delete-user-files' job (storage_deletions
 *   and an outbox row in this transaction), so they go even if Redis is away now.
 * `not-found` when the file is not in one of the creator's processed posts (another creator's too).
 */
export async function deleteVaultFile(db: DB, creatorId: string, ref: VaultFileRef): Promise<VaultDeletion> {
  return db.transaction().execute(async (trx) => {
    const key = await findVaultKey(trx, creatorId, ref);
    if (!key) return { outcome: 'not-found' as const };
    // locked, so a post made from the vault or an edit at the same moment waits for the answer
    const uses = await findPostsUsingKey(trx, creatorId, key, true);
    const places = new Map<string, number>();
    for (const u of uses) places.set(u.id, (places.get(u.id) ?? 0) + 1);
    const only = uses.filter((u, i) => u.file_count - places.get(u.id)! < 1 && uses.findIndex((o) => o.id === u.id) === i);
    if (only.length > 0) return { outcome: 'only-file' as const, posts: only.map((u) => ({ id: u.id, title: u.title, text: u.text })) };

    const removed: string[] = [];
    // a later place first, so that the places still to remove in the same post do not move
    for (const use of [...uses].sort((a, b) => b.position - a.position)) removed.push(...(await removePostFile(trx, use.id, use.position)));
    const keys = await unusedKeys(trx, removed);
    const jobs = keys.length > 0 ? [await queueStoredFileDeletion(trx, keys)] : [];
    const events = [...places.keys()].map((postId) => ({ kind: 'updated' as const, postId, creatorId }));
    return { outcome: 'deleted' as const, effects: { ...noPostEffects(), events, jobs }, removedFrom: places.size };
  });
}
