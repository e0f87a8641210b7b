import { MEDIA_VARIANTS, type MediaVariant } from '../../../common/enums';
import { postName } from '../../../common/post-name';
import type { DB } from '../../../core/db/kysely';
import { isMarkedPost } from '../../../domain/forensics/marked';
import { loadViewer, postAccess, profileVisibleToAll, toFacts, viewerWithoutEntitlements } from '../../../domain/access/access';
import type { PublicVersions } from '../../http/public-data-version';
import type { MediaFileToServe } from '../../http/serve-file';
import { findMediaRequest } from './posts.queries';

export type MediaDecision =
  | { outcome: 'not-found' }
  | { outcome: 'forbidden' }
  /** `creatorId`, `marked`: what the HLS playlists need to pick a viewer's forensic variants (docs/media.md); `mark`: a picture drawn for this buyer */
  | { outcome: 'ok'; file: MediaFileToServe; creatorId: string; marked: boolean; mark?: MarkFor };

/**
 * This viewer gets the picture with their own mark (docs/media.md, "The picture mark"): the picture
 * and who sees it, and `version`, what the marked copy depends on beyond the file (the post and the
 * creator's settings as of their last change), so a change makes a new copy.
 */
export interface MarkFor {
  position: number;
  viewerId: string;
  version: string;
}

/** The sizes of a picture a viewer can fetch; the blurred 'preview' (and a video's poster) are never marked. */
const MARKED_VARIANTS: ReadonlySet<string> = new Set(['original', 'web', 'medium', 'thumb']);

type MediaRow = Awaited<ReturnType<typeof findMediaRequest>>;

export const isVariant = (value: string): value is MediaVariant => (MEDIA_VARIANTS as readonly string[]).includes(value);

/**
 * Who gets which file of a post (the media route asks this, through the one access rule):
 * not-found for an unknown id or variant and for a post the viewer may not see; forbidden
 * for the full media of a premium or pay-per-view post without entitlement (every variant but 'preview');
 * otherwise the stored file. Two queries at most (post + file, then entitlement if premium).
 */
export async function decideMediaRequest(db: DB, viewerId: string | null, postId: string, variant: string, position = 0): Promise<MediaDecision> {
  if (!isVariant(variant)) return { outcome: 'not-found' };
  return decideForRow(db, viewerId, await findMediaRequest(db, postId, variant, position), variant, position);
}

/** The access rule over a post's row (findMediaRequest), for this viewer: a query only for a locked post of someone else, signed in. */
export async function decideForRow(db: DB, viewerId: string | null, row: MediaRow, variant: MediaVariant, position: number): Promise<MediaDecision> {
  if (!row) return { outcome: 'not-found' };
  const facts = toFacts(row);
  const viewer = variant === 'preview' ? viewerWithoutEntitlements(viewerId) : await loadViewer(db, viewerId, [facts]);
  const access = postAccess(viewer, facts);
  if (!access.visible) return { outcome: 'not-found' };
  if (variant !== 'preview' && !access.canViewMedia) return { outcome: 'forbidden' };
  if (!row.file_id || !row.storage_key || !row.content_type || row.byte_size === null) return { outcome: 'not-found' };
  // premium and pay-per-view pictures, when their creator asks, for anyone entitled but the owner
  const marked =
    row.mark_paid_pictures === true &&
    viewerId !== null &&
    !access.isOwner &&
    (row.is_premium || row.unlock_price_cents !== null) &&
    MARKED_VARIANTS.has(variant) &&
    row.content_type.startsWith('image/');
  return {
    outcome: 'ok',
    creatorId: row.creator_id,
    marked: isMarkedPost(facts),
    ...(marked && {
      mark: { position, viewerId, version: `${row.updated_at.getTime()}-${row.settings_updated_at?.getTime() ?? 0}` },
    }),
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

/** how long a copy keeps a post's media row under one data version (the same bound as the anonymous lists, public-cache.ts) */
const ROW_TTL_MS = 5_000;
const MAX_ROWS = 5_000;

/**
 * The media route's rows (findMediaRequest: the post's access facts, its name, the file) kept in
 * this copy's memory under the public data version (server/http/public-data-version.ts): every
 * table the row reads (posts, media_files, profiles, privacy_settings) takes a new number at each
 * write, whoever writes, so a post deleted, made premium or pay-per-view, or a creator made
 * private, is read again by every copy at the next request, with no message between copies to
 * miss. The row holds nothing about the viewer: entitlements are still asked per request
 * (decideForRow). One version read per turn of the event loop, shared with the lists, replaces
 * one statement per media request. A write's number is taken before its commit, so a request in
 * that instant may keep the old row for at most ROW_TTL_MS (a free URL handed out before the
 * change works for MEDIA_SIGNED_URL_TTL_S anyway: media-redirect.ts).
 */
export function mediaRows(db: DB, versionAfterArrival: (() => Promise<PublicVersions | null>) | null) {
  const rows = new Map<string, { data: string; row: MediaRow; expires: number }>();
  return async (postId: string, variant: MediaVariant, position: number): Promise<MediaRow> => {
    const version = versionAfterArrival ? await versionAfterArrival() : null;
    if (!version) return findMediaRequest(db, postId, variant, position);
    const key = `${postId}/${position}/${variant}`;
    const kept = rows.get(key);
    if (kept && kept.data === version.data && kept.expires > Date.now()) return kept.row;
    const row = await findMediaRequest(db, postId, variant, position);
    if (rows.size >= MAX_ROWS) rows.delete(rows.keys().next().value!);
    rows.set(key, { data: version.data, row, expires: Date.now() + ROW_TTL_MS });
    return row;
  };
}
