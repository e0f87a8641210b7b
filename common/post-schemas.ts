import { z } from 'zod';
import { FeedCursor } from './cursor-schema';
import { LIMITS } from './limits';
import { safeText } from './text-schema';
import { COMMENT_TEXTS, POST_TEXTS } from './texts';

/**
 * Inputs of the posts, comments and bookmarks procedures, shared by the forms and the server.
 * Each schema's type of the same name is what it parses to (z.output): the procedure parses once
 * and hands the service that type, so no service parses again. Post and comment ids are only checked for presence here: an id that is not a uuid is answered
 * like any other unknown id ('Post not found'), so a malformed link reads the same as a dead one.
 */
export const postIdSchema = z.string().trim().check(safeText('single-line')).min(1, POST_TEXTS.idRequired).max(100);

/** Keyset position in the feed (common/cursor-schema.ts). */
export { FeedCursor } from './cursor-schema';

export const FeedInput = z.object({
  cursor: FeedCursor.nullish(),
  limit: z.number().int().min(1).max(LIMITS.feedPageMax).default(LIMITS.feedPageSize),
});
export type FeedInput = z.output<typeof FeedInput>;

export const PostByIdInput = z.object({ id: postIdSchema });
export type PostByIdInput = z.output<typeof PostByIdInput>;

export const PostIdInput = z.object({ postId: postIdSchema });
export type PostIdInput = z.output<typeof PostIdInput>;

/** Comment text: trimmed, non-empty, at most 2000 characters; stored and shown as plain text. */
export const commentTextSchema = z
  .string()
  .trim()
  .check(safeText('multi-line'))
  .min(1, COMMENT_TEXTS.textRequired)
  .max(LIMITS.commentMaxLength, COMMENT_TEXTS.textTooLong);

export const AddCommentInput = z.object({
  postId: postIdSchema,
  text: commentTextSchema,
  /** the comment replied to; must belong to the same post */
  parentId: z.string().trim().check(safeText('single-line')).min(1).max(100).nullish(),
});
export type AddCommentInput = z.output<typeof AddCommentInput>;

export const ListCommentsInput = z.object({ postId: postIdSchema });
export type ListCommentsInput = z.output<typeof ListCommentsInput>;

/** The signed-in user's bookmarks, newest bookmark first; cursor as in the feed, on the bookmark's time. */
export const BookmarksListInput = FeedInput;
export type BookmarksListInput = z.output<typeof BookmarksListInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** True for the 8-4-4-4-12 hex form PostgreSQL's uuid type accepts from us. */
export const isUuid = (value: string) => UUID.test(value);
