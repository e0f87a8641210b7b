import { describe, expect, it } from 'vitest';
import type { Comment } from '../../lib/post-cache';
import { buildCommentTree } from './comment-tree';

const author = { id: 'u1', username: 'sam', displayName: 'Sam', avatarUrl: null };
const comment = (id: string, parentId: string | null): Comment => ({ id, postId: 'p', parentId, text: id, createdAt: new Date(0), author });

describe('buildCommentTree', () => {
  it('nests replies under their parents, keeping the order', () => {
    const tree = buildCommentTree([comment('a', null), comment('b', null), comment('a1', 'a'), comment('a1x', 'a1'), comment('a2', 'a')]);
    expect(tree.map((n) => n.comment.id)).toEqual(['a', 'b']);
    expect(tree[0]!.replies.map((n) => n.comment.id)).toEqual(['a1', 'a2']);
    expect(tree[0]!.replies[0]!.replies.map((n) => n.comment.id)).toEqual(['a1x']);
  });

  it('shows a reply whose parent is missing at the top level', () => {
    expect(buildCommentTree([comment('r', 'gone')]).map((n) => n.comment.id)).toEqual(['r']);
  });
});
