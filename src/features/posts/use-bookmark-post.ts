import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { BOOKMARK_TEXTS } from '../../../common/texts';
import { updatePost, type Post } from '../../lib/post-cache';
import { storePostAuthPath, useMe } from '../../lib/session';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

function withBookmark(post: Post, bookmarked: boolean, bookmarks?: number): Post {
  const delta = bookmarked === post.viewer.bookmarked ? 0 : bookmarked ? 1 : -1;
  return {
    ...post,
    viewer: { ...post.viewer, bookmarked },
    counts: { ...post.counts, bookmarks: Math.max(0, bookmarks ?? post.counts.bookmarks + delta) },
  };
}

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
  const queryClient = useQueryClient();
  const add = trpc.bookmarks.add.useMutation();
  const remove = trpc.bookmarks.remove.useMutation();
  const [pending, setPending] = useState(false);
  const postId = post.id;
  const bookmarked = post.viewer.bookmarked;

  const toggle = useCallback(async () => {
    if (!me.data) {
      notify.error(BOOKMARK_TEXTS.signInRequired);
      storePostAuthPath(router.state.location.href);
      await navigate({ to: '/auth', search: { tab: 'signin' } });
      return;
    }
    if (pending) return;
    const next = !bookmarked;
    setPending(true);
    updatePost(queryClient, postId, (p) => withBookmark(p, next));
    try {
      const result = await (next ? add : remove).mutateAsync({ postId });
      updatePost(queryClient, postId, (p) => withBookmark(p, result.bookmarked, result.bookmarks));
      notify.success({ title: next ? BOOKMARK_TEXTS.added : BOOKMARK_TEXTS.removed });
    } catch (error) {
      if (next && errorCode(error) === 'CONFLICT') {
        // It was bookmarked already (another tab): keep it bookmarked, take back the extra count.
        updatePost(queryClient, postId, (p) => ({ ...p, counts: { ...p.counts, bookmarks: Math.max(0, p.counts.bookmarks - 1) } }));
        notify.info(BOOKMARK_TEXTS.alreadyBookmarked);
      } else {
        updatePost(queryClient, postId, (p) => withBookmark(p, !next));
        notify.error(BOOKMARK_TEXTS.updateFailed);
      }
    } finally {
      setPending(false);
    }
  }, [me.data, pending, bookmarked, queryClient, postId, add, remove, router, navigate]);

  return { toggle, pending };
}
