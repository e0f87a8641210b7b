import { BookmarksListInput, PostIdInput } from '../../../common/post-schemas';
import { BOOKMARK_TEXTS } from '../../../common/texts';
import { authedProcedure, authedProcedureSaying, router } from '../../trpc/init';
import * as bookmarks from './bookmarks.service';

const bookmarkProcedure = authedProcedureSaying(BOOKMARK_TEXTS.signInRequired.description);

export const bookmarksRouter = router({
  /** CONFLICT 'This post is already in your bookmarks' on a duplicate; NOT_FOUND for a post the user may not see. */
  add: bookmarkProcedure.input(PostIdInput).mutation(({ ctx, input }) => bookmarks.addBookmark(ctx, ctx.user.id, input.postId)),
  /** Idempotent. */
  remove: bookmarkProcedure.input(PostIdInput).mutation(({ ctx, input }) => bookmarks.removeBookmark(ctx, ctx.user.id, input.postId)),
  /** The signed-in user's bookmarks (profile Bookmarks tab), keyset-paged like the feed. */
  list: authedProcedure.input(BookmarksListInput).query(({ ctx, input }) => bookmarks.listBookmarks(ctx, ctx.user.id, input)),
});
