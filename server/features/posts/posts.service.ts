import { TRPCError } from '@trpc/server';
import type { LikeResult, PostDto, PostPageDto } from '../../../common/post-dtos';
import type { FeedInput } from '../../../common/post-schemas';
import { postRoom, userRoom } from '../../../common/socket-events';
import { POST_TEXTS } from '../../../common/texts';
import { notifyLike } from '../../../domain/notifications/content';
import type { AppDeps } from '../../../core/deps';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { applyPostEffects } from '../../../domain/posts/effects';
import { deletePost as deletePostOfCreator, editPost as editPostContent, pinPost as pinPostOfCreator } from '../../../domain/posts/transitions';
import type { EditPostInput, PinPostInput } from '../../../common/post-edit';
import { MAX_PINNED_POSTS } from '../../../common/post-unlock';
import { POST_UNLOCK_TEXTS } from '../../../common/post-unlock-texts';
import { cardPage, toPostDtos } from '../../shared/post-cards/post-cards';
import { requireMaySellPostPrice } from '../../shared/selling';
import { postNotFound, requireVisiblePost } from '../../shared/visible-post';
import {
  countLikes,
  deleteLike,
  findFeedPage,
  findPostCardsByIds,
  insertLike,
} from './posts.queries';

/**
 * The home feed: published posts of visible creators, newest published first, keyset-paged on
 * (published_at, id). One statement, cards whole (server/shared/post-cards).
 */
export async function feed(deps: Pick<AppDeps, 'db'>, viewerId: string | null, { cursor, limit }: FeedInput): Promise<PostPageDto> {
  return cardPage(viewerId, await findFeedPage(deps.db, { viewerId, cursor: cursor ?? null, limit }), limit);
}

/** One post as a card, or NOT_FOUND for an unknown id and a post the viewer may not see alike. */
export async function postById(deps: Pick<AppDeps, 'db'>, viewerId: string | null, postId: string): Promise<PostDto> {
  const [dto] = toPostDtos(viewerId, await findPostCardsByIds(deps.db, viewerId, [postId]));
  if (!dto) throw postNotFound();
  return dto;
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
  deps: Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log' | 'config'> & EmitOrigin,
  userId: string,
  postId: string,
): Promise<{ postId: string }> {
  const access = await requireVisiblePost(deps.db, userId, postId);
  if (!access.isOwner) throw new TRPCError({ code: 'FORBIDDEN', message: POST_TEXTS.deleteNotAllowed.description });
  const effects = await deletePostOfCreator(deps.db, userId, postId);
  // deleted meanwhile (a second tab): the post is gone either way, but this call did not do it
  if (effects === null) throw postNotFound();
  await applyPostEffects(deps, effects);
  return { postId };
}

type EditDeps = Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'payments'>;

/**
 * The owner edits their post (issue 29 item 4; domain/posts/transitions.ts `editPost`): anyone
 * else, FORBIDDEN. After the commit every tab showing the post hears `post:updated` (its room, and
 * the creator's own) and refetches it through the access rule; the public cache empties (a post
 * made premium or priced is locked at once for visitors too).
 */
export async function editPost(deps: EditDeps, userId: string, input: EditPostInput): Promise<PostDto> {
  const access = await requireVisiblePost(deps.db, userId, input.postId);
  if (!access.isOwner) throw new TRPCError({ code: 'FORBIDDEN', message: POST_UNLOCK_TEXTS.onlyOwnerEdits });
  await requireMaySellPostPrice(deps, userId, input.postId, input.unlock?.price ?? null);
  const edited = await editPostContent(
    deps.db,
    userId,
    input.postId,
    {
      title: input.title, text: input.text, hashtags: input.hashtags, isPremium: input.isPremium,
      unlockPriceCents: input.unlock?.price ?? null, unlockMode: input.unlock?.mode ?? null,
    },
    deps.clock.now(),
  );
  if (!edited) throw postNotFound();
  deps.realtime.toRooms([postRoom(input.postId), userRoom(userId)], 'post:updated', { postId: input.postId });
  return postById(deps, userId, input.postId);
}

/** The owner pins (at most MAX_PINNED_POSTS) or unpins their published post (issue 29 item 5). */
export async function pinPost(deps: EditDeps, userId: string, input: PinPostInput): Promise<{ postId: string; pinned: boolean }> {
  const access = await requireVisiblePost(deps.db, userId, input.postId);
  if (!access.isOwner) throw new TRPCError({ code: 'FORBIDDEN', message: POST_UNLOCK_TEXTS.onlyOwnerEdits });
  const outcome = await pinPostOfCreator(deps.db, userId, input.postId, input.pinned, MAX_PINNED_POSTS, deps.clock.now());
  if (outcome === 'limit') throw new TRPCError({ code: 'CONFLICT', message: POST_UNLOCK_TEXTS.pinLimit(MAX_PINNED_POSTS) });
  if (outcome === 'not-found') throw new TRPCError({ code: 'BAD_REQUEST', message: POST_UNLOCK_TEXTS.pinPublishedOnly });
  deps.realtime.toRooms([postRoom(input.postId), userRoom(userId)], 'post:updated', { postId: input.postId });
  return { postId: input.postId, pinned: outcome === 'pinned' };
}
