import { TRPCError } from '@trpc/server';
import type { AddCommentResult, CommentDto } from '../../../common/post-dtos';
import type { AddCommentInput } from '../../../common/post-schemas';
import { postRoom } from '../../../common/socket-events';
import { COMMENT_TEXTS } from '../../../common/texts';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { commentsOpenFor } from '../../../domain/content/comments-open';
import type { SessionUser } from '../../../core/sessions/resolved-session';
import type { AppDeps } from '../../../core/deps';
import { dispatchOutbox } from '../../../core/outbox/outbox';
import { notifyComment } from '../../../domain/notifications/content';
import type { EmitOrigin } from '../../../core/realtime/realtime';
import { requireVisiblePost } from '../../shared/visible-post';
import { commentBelongsToPost, countComments, findComments, insertComment } from './comments.queries';

/**
 * All comments of a post the viewer may see, oldest first, flat: each carries its parentId and
 * the client nests replies under their parent. NOT_FOUND 'Post not found' otherwise.
 */
export async function listComments(deps: Pick<AppDeps, 'db'>, viewerId: string | null, postId: string): Promise<CommentDto[]> {
  await requireVisiblePost(deps.db, viewerId, postId);
  const rows = await findComments(deps.db, postId);
  return rows.map((row) => ({
    id: row.id,
    postId: row.post_id,
    parentId: row.parent_id,
    text: row.comment_text,
    createdAt: row.created_at,
    author: { id: row.user_id, username: row.username, displayName: row.display_name, avatarUrl: row.avatar_url },
  }));
}

/**
 * Adds a comment or a reply as plain text (trimmed, 1..2000 characters). The post must be
 * visible to the user and a reply's parent must be a comment of the same post.
 */
export async function addComment(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'queues' | 'log'> & EmitOrigin,
  user: Pick<SessionUser, 'id' | 'username' | 'displayName' | 'avatarUrl'>,
  input: AddCommentInput,
): Promise<AddCommentResult> {
  const { postId, text, parentId } = input;
  const access = await requireVisiblePost(deps.db, user.id, postId);
  // Content Settings: the creator may close their posts to comments
  if (!(await commentsOpenFor(deps.db, access.facts.creatorId, user.id))) {
    throw new TRPCError({ code: 'FORBIDDEN', message: SETTINGS_TEXTS.commentsClosed });
  }
  const parent = parentId ?? null;
  const parentNotFound = () => new TRPCError({ code: 'BAD_REQUEST', message: COMMENT_TEXTS.parentNotFound });
  if (parent !== null && !(await commentBelongsToPost(deps.db, parent, postId))) throw parentNotFound();

  const { row, jobs } = await deps.db
    .transaction()
    .execute(async (trx) => {
      const inserted = await insertComment(trx, { postId, userId: user.id, parentId: parent, text });
      // the post's creator and the author of the comment answered are told (domain/notifications)
      const notices = await notifyComment(trx, { postId, creatorId: access.facts.creatorId, authorId: user.id, parentId: parent, at: inserted.created_at });
      return { row: inserted, jobs: notices };
    })
    .catch((error: { code?: string }) => {
      // the parent was deleted between the check and the insert
      if (error.code === '23503' && parent !== null) throw parentNotFound();
      throw error;
    });
  await dispatchOutbox(deps, jobs);
  const comments = await countComments(deps.db, postId);
  const comment: CommentDto = {
    id: row.id,
    postId: row.post_id,
    parentId: row.parent_id,
    text: row.comment_text,
    createdAt: row.created_at,
    author: { id: user.id, username: user.username, displayName: user.displayName, avatarUrl: user.avatarUrl },
  };
  deps.realtime.toRooms(
    postRoom(postId),
    'post:comment',
    { postId, comment: { ...comment, createdAt: comment.createdAt.toISOString() }, comments },
    { except: deps.socketId },
  );
  return { comment, comments };
}
