import { MEDIA_VARIANTS, type MediaVariant } from '../../../common/enums';
import { postName } from '../../../common/post-name';
import type { DB } from '../../../core/db/kysely';
import { isMarkedPost } from '../../../domain/forensics/marked';
import { loadViewer, postAccess, profileVisibleToAll, toFacts, viewerWithoutEntitlements } from '../../../domain/access/access';
import type { MediaFileToServe } from '../../http/serve-file';
import { findMediaRequest } from './posts.queries';

export type MediaDecision =
  | { outcome: 'not-found' }
  | { outcome: 'forbidden' }
  /** `creatorId`, `marked`: what the HLS playlists need to pick a viewer's forensic variants (docs/media.md) */
  | { outcome: 'ok'; file: MediaFileToServe; creatorId: string; marked: boolean };

const isVariant = (value: string): value is MediaVariant => (MEDIA_VARIANTS as readonly string[]).includes(value);

/**
 * Who gets which file of a post (the media route asks this, through the one access rule):
 * not-found for an unknown id or variant and for a post the viewer may not see; forbidden
 * for the full media of a premium or pay-per-view post without entitlement (every variant but 'preview');
 * otherwise the stored file. Two queries at most (post + file, then entitlement if premium).
 */
export async function decideMediaRequest(db: DB, viewerId: string | null, postId: string, variant: string, position = 0): Promise<MediaDecision> {
  if (!isVariant(variant)) return { outcome: 'not-found' };
  const row = await findMediaRequest(db, postId, variant, position);
  if (!row) return { outcome: 'not-found' };
  const facts = toFacts(row);
  const viewer = variant === 'preview' ? viewerWithoutEntitlements(viewerId) : await loadViewer(db, viewerId, [facts]);
  const access = postAccess(viewer, facts);
  if (!access.visible) return { outcome: 'not-found' };
  if (variant !== 'preview' && !access.canViewMedia) return { outcome: 'forbidden' };
  if (!row.file_id || !row.storage_key || !row.content_type || row.byte_size === null) return { outcome: 'not-found' };
  return {
    outcome: 'ok',
    creatorId: row.creator_id,
    marked: isMarkedPost(facts),
    file: {
      fileId: row.file_id,
      storageKey: row.storage_key,
      contentType: row.content_type,
      byteSize: Number(row.byte_size),
      name: postName({ title: row.title, creator: { displayName: row.display_name, username: row.username } }),
      postId: row.id,
      shared: !row.is_premium && row.unlock_price_cents === null && row.status === 'published' && profileVisibleToAll(row.profile_visibility),
    },
  };
}
