import { TRPCError } from '@trpc/server';
import type { BookmarkResult, PostPageDto } from '../../../common/post-dtos';
import type { BookmarksListInput } from '../../../common/post-schemas';
import { postRoom } from '../../../common/socket-events';
import { BOOKMARK_TEXTS } from '../../../common/texts';
import type { AppDeps } from '../../../core/deps';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { cardPage } from '../../shared/post-cards/post-cards';
import { requireVisiblePost } from '../../shared/visible-post';
import { countBookmarks, deleteBookmark, findBookmarkedPage, insertBookmark } from './bookmarks.queries';

type Deps = Pick<AppDeps, 'db' | 'realtime'> & EmitOrigin;

/**
 * Bookmarks a post the user may see. A second bookmark is refused with CONFLICT 'This post is
 * already in your bookmarks' (the spec's 'Already bookmarked' toast).
 */
export async function addBookmark(deps: Deps, userId: string, postId: string): Promise<BookmarkResult> {
  await requireVisiblePost(deps.db, userId, postId);
  if (!(await insertBookmark(deps.db, userId, postId))) {
    throw new TRPCError({ code: 'CONFLICT', message: BOOKMARK_TEXTS.alreadyBookmarked.description });
  }
  return changed(deps, postId, true);
}

/** Idempotent: removing a bookmark that is not there is success. */
export async function removeBookmark(deps: Deps, userId: string, postId: string): Promise<BookmarkResult> {
  await requireVisiblePost(deps.db, userId, postId);
  const removed = await deleteBookmark(deps.db, userId, postId);
  if (!removed) return { postId, bookmarked: false, bookmarks: await countBookmarks(deps.db, postId) };
  return changed(deps, postId, false);
}

async function changed(deps: Deps, postId: string, bookmarked: boolean): Promise<BookmarkResult> {
  const bookmarks = await countBookmarks(deps.db, postId);
  deps.realtime.toRooms(postRoom(postId), 'post:bookmarks', { postId, bookmarks }, { except: deps.socketId });
  return { postId, bookmarked, bookmarks };
}

/** The user's bookmarks that they may still see, newest bookmark first, as feed cards. */
export async function listBookmarks(deps: Pick<AppDeps, 'db'>, userId: string, { cursor, limit }: BookmarksListInput): Promise<PostPageDto> {
  return cardPage(userId, await findBookmarkedPage(deps.db, { userId, cursor: cursor ?? null, limit }), limit);
}
