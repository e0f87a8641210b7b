import { z } from 'zod';
import { FeedCursor } from './cursor-schema';
import { commentTextSchema } from './comment-text-schema';
import { commentParentId, postId } from './ids';
import { LIMITS } from './limits';

/**
 * Inputs of the posts, comments and bookmarks procedures, shared by the forms and the server.
 * Each schema's type of the same name is what it parses to (z.output): the procedure parses once
 * and hands the service that type, so no service parses again. Ids are common/ids.ts's: one that is
 * not a uuid is answered like any other unknown id ('Post not found').
 */

/** Keyset position in the feed (common/cursor-schema.ts). */
export { FeedCursor } from './cursor-schema';

export const FeedInput = z.object({
  cursor: FeedCursor.nullish(),
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(LIMITS.feedPageSize),
});
export type FeedInput = z.output<typeof FeedInput>;

export const PostByIdInput = z.object({ id: postId });
export type PostByIdInput = z.output<typeof PostByIdInput>;

export const PostIdInput = z.object({ postId });
export type PostIdInput = z.output<typeof PostIdInput>;

/** One file of a post of several (its place, 0 the first). */
export const PostFileInput = z.object({ postId, position: z.number().int().min(0).max(19) });
export type PostFileInput = z.output<typeof PostFileInput>;

/** Comment text (common/comment-text-schema.ts, a module of its own for the comment box). */
export { commentTextSchema } from './comment-text-schema';

export const AddCommentInput = z.object({
  postId,
  text: commentTextSchema,
  /** the comment replied to; must belong to the same post */
  parentId: commentParentId.nullish(),
});
export type AddCommentInput = z.output<typeof AddCommentInput>;

export const ListCommentsInput = z.object({ postId });
export type ListCommentsInput = z.output<typeof ListCommentsInput>;

/** The signed-in user's bookmarks, newest bookmark first; cursor as in the feed, on the bookmark's time. */
export const BookmarksListInput = FeedInput;
export type BookmarksListInput = z.output<typeof BookmarksListInput>;
