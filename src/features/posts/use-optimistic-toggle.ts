import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { withoutCountStep, withToggle, type ToggleField } from './optimistic-toggle';
import { updatePost, type Post } from '../../lib/post-cache';

export interface OptimisticToggleOptions<TResult> {
  post: Post;
  field: ToggleField;
  /** sends the change (`next`: the state asked for) */
  send: (next: boolean) => Promise<TResult>;
  /** the server's answer as the flag and the absolute count */
  settled: (result: TResult) => { on: boolean; count: number };
  onSuccess?: (next: boolean) => void;
  /**
   * A failure: 'revert' (the default) puts the flag and the count back; 'keep' means the server
   * was in that state already, so only the count's step is taken back.
   */
  onError?: (error: unknown, next: boolean) => 'revert' | 'keep';
}

/**
 * A viewer's on/off action on a post (like, bookmark) with react-query's optimistic update: the
 * flag and the count change at once in every cache that holds the post (onMutate), a failure
 * undoes it (onError), and the server's answer sets the final state and absolute count
 * (onSettled). `pending` is the per-post loading flag: a second press while one runs is ignored.
 */
export function useOptimisticToggle<TResult>({ post, field, send, settled, onSuccess, onError }: OptimisticToggleOptions<TResult>) {
  const queryClient = useQueryClient();
  const postId = post.id;
  const on = post.viewer[field.flag];

  const mutation = useMutation({
    mutationFn: (next: boolean) => send(next),
    onMutate: (next: boolean) => updatePost(queryClient, postId, (p) => withToggle(p, field, next)),
    onError: (error, next) => {
      const outcome = onError?.(error, next) ?? 'revert';
      updatePost(queryClient, postId, (p) => (outcome === 'keep' ? withoutCountStep(p, field, next) : withToggle(p, field, !next)));
    },
    onSuccess: (_result, next) => onSuccess?.(next),
    onSettled: (result) => {
      if (result === undefined) return;
      const { on: serverOn, count } = settled(result);
      updatePost(queryClient, postId, (p) => withToggle(p, field, serverOn, count));
    },
  });

  const { mutate, isPending } = mutation;
  const toggle = useCallback(() => {
    if (!isPending) mutate(!on);
  }, [isPending, mutate, on]);

  return { toggle, pending: isPending };
}
