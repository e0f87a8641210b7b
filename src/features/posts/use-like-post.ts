import { LIKE_TOGGLE } from './optimistic-toggle';
import type { Post } from '../../lib/post-cache';
import { useMe } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { useOptimisticToggle } from './use-optimistic-toggle';

/**
 * The like toggle (spec part 1 §4): signed out, nothing happens. Otherwise the state and the count
 * change at once in every cache, the like or unlike is sent (both idempotent on the server), the
 * answer's count is applied, and any failure reverts the change (only logged). `pending` is the
 * per-post loading flag: the button is disabled while the call runs.
 */
export function useLikePost(post: Post) {
  const me = useMe();
  const utils = trpc.useUtils();
  const { toggle, pending } = useOptimisticToggle({
    post,
    field: LIKE_TOGGLE,
    send: (next) => (next ? utils.client.posts.like : utils.client.posts.unlike).mutate({ postId: post.id }),
    settled: (result) => ({ on: result.liked, count: result.likes }),
    onError: (error) => {
      console.error('Could not update the like', error);
      return 'revert';
    },
  });

  return { toggle: me.data ? toggle : () => undefined, pending, signedIn: !!me.data };
}
