import { useCallback, useState } from 'react';
import { POSTS_VIEWED_KEY } from '../../lib/session';

function read(): number {
  try {
    const value = Number.parseInt(localStorage.getItem(POSTS_VIEWED_KEY) ?? '0', 10);
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Posts counted in this tab, so one post shown again (a re-render, a return to /) counts once. */
const counted = new Set<string>();

/**
 * The anonymous view counter (spec part 1 §4, §6): `postsViewed` in local storage, one more for
 * each post shown to a visitor, reset to 0 on sign-in (use-complete-sign-in.ts).
 */
export function usePostsViewed() {
  const [viewed, setViewed] = useState(read);
  const countView = useCallback((postId: string) => {
    if (counted.has(postId)) return;
    counted.add(postId);
    const next = read() + 1;
    try {
      localStorage.setItem(POSTS_VIEWED_KEY, String(next));
    } catch {
      // storage disabled: the count lives for this page only
    }
    setViewed((v) => Math.max(v + 1, next));
  }, []);
  return { viewed, countView };
}
