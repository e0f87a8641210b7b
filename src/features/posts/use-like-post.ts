import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { updatePost, type Post } from '../../lib/post-cache';
import { useMe } from '../../lib/session';
import { trpc } from '../../lib/trpc';

function withLike(post: Post, liked: boolean, likes?: number): Post {
  const delta = liked === post.viewer.liked ? 0 : liked ? 1 : -1;
  return {
    ...post,
    viewer: { ...post.viewer, liked },
    counts: { ...post.counts, likes: Math.max(0, likes ?? post.counts.likes + delta) },
  };
}

/**
 * The like toggle (spec part 1 §4): signed out, nothing happens. Otherwise the state and the count
 * change at once in every cache, the like or unlike is sent (both idempotent on the server), the
 * answer's count is applied, and any failure reverts the change (only logged). `pending` is the
 * per-post loading flag: the button is disabled while the call runs.
 */
export function useLikePost(post: Post) {
  const me = useMe();
  const queryClient = useQueryClient();
  const like = trpc.posts.like.useMutation();
  const unlike = trpc.posts.unlike.useMutation();
  const [pending, setPending] = useState(false);
  const postId = post.id;
  const liked = post.viewer.liked;

  const toggle = useCallback(async () => {
    if (!me.data || pending) return;
    const next = !liked;
    setPending(true);
    updatePost(queryClient, postId, (p) => withLike(p, next));
    try {
      const result = await (next ? like : unlike).mutateAsync({ postId });
      updatePost(queryClient, postId, (p) => withLike(p, result.liked, result.likes));
    } catch (error) {
      console.error('Could not update the like', error);
      updatePost(queryClient, postId, (p) => withLike(p, !next));
    } finally {
      setPending(false);
    }
  }, [me.data, pending, liked, queryClient, postId, like, unlike]);

  return { toggle, pending, signedIn: !!me.data };
}
