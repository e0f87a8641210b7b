import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { BOOKMARK_TEXTS } from '../../../common/texts';
import { BOOKMARK_TOGGLE } from './optimistic-toggle';
import type { Post } from '../../lib/post-cache';
import { storePostAuthPath, useMe } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { useOptimisticToggle } from './use-optimistic-toggle';

/**
 * The bookmark toggle (spec part 1 §4, §6, §8): signed out → 'Sign in required' and /auth;
 * otherwise an optimistic flip and count change, then 'Added to bookmarks' / 'Removed from
 * bookmarks'; a duplicate → 'Already bookmarked'; any other failure → 'Error - Failed to update
 * bookmark' and the change is reverted.
 */
export function useBookmarkPost(post: Post) {
  const me = useMe();
  const router = useRouter();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { toggle, pending } = useOptimisticToggle({
    post,
    field: BOOKMARK_TOGGLE,
    send: (next) => (next ? utils.client.bookmarks.add : utils.client.bookmarks.remove).mutate({ postId: post.id }),
    settled: (result) => ({ on: result.bookmarked, count: result.bookmarks }),
    onSuccess: (next) => notify.success({ title: next ? BOOKMARK_TEXTS.added : BOOKMARK_TEXTS.removed }),
    onError: (error, next) => {
      if (next && errorCode(error) === 'CONFLICT') {
        // It was bookmarked already (another tab): it stays bookmarked, without the extra count.
        notify.info(BOOKMARK_TEXTS.alreadyBookmarked);
        return 'keep';
      }
      notify.error(BOOKMARK_TEXTS.updateFailed);
      return 'revert';
    },
  });

  const signedIn = !!me.data;
  const guardedToggle = useCallback(async () => {
    if (signedIn) return toggle();
    notify.error(BOOKMARK_TEXTS.signInRequired);
    storePostAuthPath(router.state.location.href);
    await navigate({ to: '/auth', search: { tab: 'signin' } });
  }, [signedIn, toggle, router, navigate]);

  return { toggle: guardedToggle, pending };
}
