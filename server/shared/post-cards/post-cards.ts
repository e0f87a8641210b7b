import { ladderMasterUrl } from '../../../common/ladder';
import type { MediaVariant } from '../../../common/enums';
import type { PostDto, PostMediaDto, PostPageDto } from '../../../common/post-dtos';
import { postAccess, toFacts, viewerOfRows } from '../../../domain/access/access';
import { fromCents } from '../../../common/money';
import type { PostCardRow } from './post-cards.queries';

/** One page of cards as the client gets it: the DTOs the viewer may see, and the cursor after the last row. */
export function cardPage<R extends PostCardRow>(viewerId: string | null, rows: R[], limit: number): PostPageDto {
  return toPage(toPostDtos(viewerId, rows), rows, limit);
}

export function toPage<R extends { id: string; cursor_at: string }>(items: PostDto[], rows: R[], limit: number): PostPageDto {
  const last = rows.at(-1);
  return { items, nextCursor: rows.length === limit && last ? { createdAt: last.cursor_at, id: last.id } : null };
}

/**
 * Cards (rows of postCards, which carry the counts, the viewer's state, the viewer's entitlement
 * and the media) → DTOs, through the one access rule: rows the viewer may not see are dropped,
 * and the full media of the rest only where `postAccess` says so.
 */
export function toPostDtos(viewerId: string | null, rows: PostCardRow[]): PostDto[] {
  const viewer = viewerOfRows(viewerId, rows);
  const dtos: PostDto[] = [];
  for (const row of rows) {
    const access = postAccess(viewer, toFacts(row));
    if (!access.visible) continue;
    dtos.push({
      id: row.id,
      title: row.title,
      text: row.post_text,
      hashtags: row.hashtags,
      isPremium: row.is_premium,
      isNsfw: row.is_nsfw,
      status: row.status,
      createdAt: row.created_at,
      publishAt: row.publish_at,
      mediaKind: row.media_kind,
      creator: {
        id: row.creator_id,
        username: row.username,
        displayName: row.display_name,
        avatarUrl: row.avatar_url,
        isVerified: row.verified_badge,
        isPremium: row.creator_is_premium,
      },
      counts: {
        likes: Number(row.likes ?? 0),
        comments: Number(row.comments ?? 0),
        bookmarks: Number(row.bookmarks ?? 0),
      },
      viewer: {
        liked: Boolean(row.liked),
        bookmarked: Boolean(row.bookmarked),
        isOwner: access.isOwner,
        canViewMedia: access.canViewMedia,
      },
      ...mediaOfFiles(row.id, row.media, access.canViewMedia, row.original_filename),
      unlock:
        row.unlock_price_cents !== null && row.unlock_mode !== null
          ? { price: fromCents(row.unlock_price_cents), mode: row.unlock_mode, unlocked: Boolean(row.viewer_unlocked) }
          : null,
      pinnedAt: row.pinned_at,
    });
  }
  return dtos;
}

/**
 * A post's stored variants grouped by file: `media` is the first file's (as every post has had),
 * and a post of several files also lists them all in `files` (first included), in their order.
 */
export function mediaOfFiles(
  postId: string,
  rows: (MediaFileRow & { position?: number })[],
  canViewMedia: boolean,
  fileName: string | null,
): Pick<PostDto, 'media' | 'files'> {
  const byPosition = new Map<number, MediaFileRow[]>();
  for (const row of rows) {
    const position = row.position ?? 0;
    byPosition.set(position, [...(byPosition.get(position) ?? []), row]);
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  const files = positions.map((position, index) =>
    toMediaDto(postId, byPosition.get(position)!, canViewMedia, index === 0 ? fileName : null, { position, first: index === 0 }),
  );
  const media = files[0] ?? null;
  return files.length > 1 ? { media, files: files.filter((f): f is PostMediaDto => f !== null) } : { media };
}

/** A stored variant as a row (bigint and numeric as strings) or from a card's JSON (as numbers). */
interface MediaFileRow {
  variant: MediaVariant;
  content_type: string;
  byte_size: string | number;
  width: number | null;
  height: number | null;
  duration_seconds: string | number | null;
}

/** The first place keeps the URL every post had; the others carry theirs (media.http.ts). */
export const mediaUrl = (postId: string, variant: MediaVariant, position = 0) =>
  position === 0 ? `/media/${postId}/${variant}` : `/media/${postId}/${position}/${variant}`;

/** URLs of the authorised media route; the full media only when the viewer may see it. */
export function toMediaDto(
  postId: string,
  files: MediaFileRow[],
  canViewMedia: boolean,
  fileName: string | null = null,
  { position, first }: { position: number; first: boolean } = { position: 0, first: true },
): PostMediaDto | null {
  if (files.length === 0) return null;
  const byVariant = new Map(files.map((f) => [f.variant, f]));
  const original = byVariant.get('original') ?? files.find((f) => f.variant !== 'preview') ?? files[0]!;
  const isImage = original.content_type.startsWith('image/');
  const main: MediaVariant = isImage && byVariant.has('web') ? 'web' : 'original';
  const shape = (isImage ? byVariant.get('web') : undefined) ?? original;
  const full = (variant: MediaVariant) => (canViewMedia && byVariant.has(variant) ? mediaUrl(postId, variant, position) : null);
  return {
    contentType: original.content_type,
    width: shape.width,
    height: shape.height,
    durationSeconds: original.duration_seconds === null ? null : Number(original.duration_seconds),
    // a locked post's file name could tell what it shows
    fileName: canViewMedia ? fileName : null,
    byteSize: canViewMedia ? Number(original.byte_size) : null,
    url: full(main),
    thumbUrl: full('thumb'),
    mediumUrl: full('medium'),
    posterUrl: full('poster'),
    downloadUrl: canViewMedia && byVariant.has('original') ? `${mediaUrl(postId, 'original', position)}?download=1` : null,
    streamUrl: canViewMedia && original.content_type.startsWith('video/') && byVariant.has('original') ? ladderMasterUrl(postId, position) : null,
    // a locked post of several files shows its first file blurred, and only that
    previewUrl: first && byVariant.has('preview') ? mediaUrl(postId, 'preview', position) : null,
  };
}
