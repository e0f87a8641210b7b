import { TRPCError } from '@trpc/server';
import type { MediaVariant } from '../../../common/enums';
import type { LikeResult, PostDto, PostMediaDto, PostPageDto } from '../../../common/post-dtos';
import { isUuid, type FeedInput } from '../../../common/post-schemas';
import { postRoom, userRoom } from '../../../common/socket-events';
import { POST_TEXTS } from '../../../common/texts';
import { notifyLike } from '../../../domain/notifications/content';
import type { AppDeps } from '../../../core/deps';
import type { DB } from '../../../core/db/kysely';
import { addToOutbox, dispatchOutbox } from '../../../core/outbox/outbox';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { loadPostAccess, postAccess, toFacts, viewerOfRows, type LoadedPostAccess } from '../../../domain/access/access';
import {
  countLikes,
  deleteLike,
  deletePost as deletePostRow,
  findCreatorPostsPage,
  findExplorePage,
  findFeedPage,
  findPostCardsByIds,
  findStorageKeys,
  insertLike,
  lockOwnPost,
  type PostCardRow,
} from './posts.queries';

export const postNotFound = () => new TRPCError({ code: 'NOT_FOUND', message: POST_TEXTS.notFound });

/**
 * A visible post for `viewerId`, or NOT_FOUND 'Post not found' (for an unknown id and an
 * invisible post alike: a stranger's draft or a private creator's post is not admitted to exist).
 */
export async function requireVisiblePost(db: DB, viewerId: string | null, postId: string, opts = { media: false }): Promise<LoadedPostAccess> {
  const access = await loadPostAccess(db, viewerId, postId, opts);
  if (!access?.visible) throw postNotFound();
  return access;
}

/**
 * The home feed: published posts of visible creators, newest published first, keyset-paged on
 * (published_at, id). One statement, cards whole (posts.queries.ts, postCards).
 */
export async function feed(deps: Pick<AppDeps, 'db'>, viewerId: string | null, { cursor, limit }: FeedInput): Promise<PostPageDto> {
  const rows = await findFeedPage(deps.db, { viewerId, cursor: cursor ?? null, limit });
  return toPage(toPostDtos(viewerId, rows), rows, limit);
}

/**
 * One page of one creator's posts (profile Content tab, owner's Drafts tab) as feed cards. The
 * caller has decided that the viewer may see the profile; the access rule still filters each row.
 */
export async function creatorPostsPage(
  deps: Pick<AppDeps, 'db'>,
  viewerId: string | null,
  opts: Omit<Parameters<typeof findCreatorPostsPage>[1], 'viewerId'>,
): Promise<PostPageDto> {
  const rows = await findCreatorPostsPage(deps.db, { ...opts, viewerId });
  return toPage(toPostDtos(viewerId, rows), rows, opts.limit);
}

/** One Explore page as feed cards (premium gating as everywhere). */
export async function explorePage(
  deps: Pick<AppDeps, 'db'>,
  viewerId: string | null,
  opts: Omit<Parameters<typeof findExplorePage>[1], 'viewerId'>,
): Promise<PostPageDto> {
  const rows = await findExplorePage(deps.db, { ...opts, viewerId });
  return toPage(toPostDtos(viewerId, rows), rows, opts.limit);
}

export function toPage<R extends { id: string; cursor_at: string }>(items: PostDto[], rows: R[], limit: number): PostPageDto {
  const last = rows.at(-1);
  return { items, nextCursor: rows.length === limit && last ? { createdAt: last.cursor_at, id: last.id } : null };
}

/** One post as a card, or NOT_FOUND for an unknown id and a post the viewer may not see alike. */
export async function postById(deps: Pick<AppDeps, 'db'>, viewerId: string | null, postId: string): Promise<PostDto> {
  if (!isUuid(postId)) throw postNotFound();
  const [dto] = toPostDtos(viewerId, await findPostCardsByIds(deps.db, viewerId, [postId]));
  if (!dto) throw postNotFound();
  return dto;
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
      media: toMediaDto(row.id, row.media, access.canViewMedia, row.original_filename),
    });
  }
  return dtos;
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

export const mediaUrl = (postId: string, variant: MediaVariant) => `/media/${postId}/${variant}`;

/** URLs of the authorised media route; the full media only when the viewer may see it. */
export function toMediaDto(postId: string, files: MediaFileRow[], canViewMedia: boolean, fileName: string | null = null): PostMediaDto | null {
  if (files.length === 0) return null;
  const byVariant = new Map(files.map((f) => [f.variant, f]));
  const original = byVariant.get('original') ?? files.find((f) => f.variant !== 'preview') ?? files[0]!;
  const isImage = original.content_type.startsWith('image/');
  const main: MediaVariant = isImage && byVariant.has('web') ? 'web' : 'original';
  const shape = (isImage ? byVariant.get('web') : undefined) ?? original;
  const full = (variant: MediaVariant) => (canViewMedia && byVariant.has(variant) ? mediaUrl(postId, variant) : null);
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
    posterUrl: full('poster'),
    downloadUrl: canViewMedia && byVariant.has('original') ? `${mediaUrl(postId, 'original')}?download=1` : null,
    previewUrl: byVariant.has('preview') ? mediaUrl(postId, 'preview') : null,
  };
}

type LikeDeps = Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log'> & EmitOrigin;

/** Idempotent: liking twice is success. Refused (NOT_FOUND) for a post the user may not see. A new like tells the creator (grouped per post and day). */
export async function like(deps: LikeDeps, userId: string, postId: string): Promise<LikeResult> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  const { changed, jobs } = await deps.db.transaction().execute(async (trx) => {
    const added = await insertLike(trx, postId, userId);
    return { changed: added, jobs: added ? await notifyLike(trx, { postId, creatorId: access.facts.creatorId, likerId: userId, at: new Date() }) : [] };
  });
  await dispatchOutbox(deps, jobs);
  return likeResult(deps, postId, true, changed);
}

/** Idempotent: unliking a post one does not like is success. */
export async function unlike(deps: LikeDeps, userId: string, postId: string): Promise<LikeResult> {
  await requireVisiblePost(deps.db, userId, postId);
  const changed = await deleteLike(deps.db, postId, userId);
  return likeResult(deps, postId, false, changed);
}

async function likeResult(deps: LikeDeps, postId: string, liked: boolean, changed: boolean): Promise<LikeResult> {
  const likes = await countLikes(deps.db, postId);
  if (changed) deps.realtime.toRooms(postRoom(postId), 'post:likes', { postId, likes }, { except: deps.socketId });
  return { postId, liked, likes };
}

/**
 * Only the creator deletes a post (others: FORBIDDEN 'You can only delete your own posts'). The
 * rows go in one transaction; the stored files are removed afterwards by the maintenance job
 * 'delete-post-files'. `post:deleted` goes to the sockets in the post's room (joined only by
 * those who may see it) and to the creator's other tabs (drafts and uploads are not always in a room).
 */
export async function deletePost(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log'> & EmitOrigin,
  userId: string,
  postId: string,
): Promise<{ postId: string }> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  if (!access.isOwner) throw new TRPCError({ code: 'FORBIDDEN', message: POST_TEXTS.deleteNotAllowed.description });
  const job = await deps.db.transaction().execute(async (trx) => {
    if (!(await lockOwnPost(trx, postId, userId))) return null;
    const keys = await findStorageKeys(trx, postId);
    await deletePostRow(trx, postId);
    // the files go by a job whose outbox row commits with the deletion (Redis away: the relay queues it)
    return addToOutbox(trx, { queue: 'maintenance', name: 'delete-post-files', data: { postId, keys }, jobId: `delete-post-files-${postId}` });
  });
  // deleted meanwhile (a second tab): the post is gone either way, but this call did not do it
  if (job === null) throw postNotFound();
  await dispatchOutbox(deps, [job]);
  deps.realtime.toRooms([postRoom(postId), userRoom(userId)], 'post:deleted', { postId }, { except: deps.socketId });
  return { postId };
}
