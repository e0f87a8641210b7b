import type { Comment } from '../../lib/post-cache';

export interface CommentNode {
  comment: Comment;
  replies: CommentNode[];
}

/**
 * The flat list (oldest first, each with its parentId) as threads: top-level comments in order,
 * each with its replies nested under it. A reply whose parent is not in the list is shown at the
 * top level rather than lost.
 */
export function buildCommentTree(comments: readonly Comment[]): CommentNode[] {
  const nodes = new Map<string, CommentNode>();
  for (const comment of comments) nodes.set(comment.id, { comment, replies: [] });
  const roots: CommentNode[] = [];
  for (const comment of comments) {
    const node = nodes.get(comment.id)!;
    const parent = comment.parentId ? nodes.get(comment.parentId) : undefined;
    if (parent && parent !== node) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
}
