import { describe, expect, it } from 'vitest';
import { BOOKMARK_TOGGLE, LIKE_TOGGLE, withoutCountStep, withToggle } from './optimistic-toggle';
import type { Post } from '../../lib/post-cache';

function post(viewer: Partial<Post['viewer']> = {}, counts: Partial<Post['counts']> = {}): Post {
  return {
    id: 'p1',
    viewer: { liked: false, bookmarked: false, isOwner: false, canViewMedia: true, ...viewer },
    counts: { likes: 3, comments: 2, bookmarks: 1, ...counts },
  } as Post;
}

describe('the optimistic toggle’s cache changes', () => {
  it('flips the flag and moves its own count by one, nothing else', () => {
    const liked = withToggle(post(), LIKE_TOGGLE, true);
    expect(liked.viewer).toMatchObject({ liked: true, bookmarked: false });
    expect(liked.counts).toEqual({ likes: 4, comments: 2, bookmarks: 1 });
    const unliked = withToggle(liked, LIKE_TOGGLE, false);
    expect(unliked.viewer.liked).toBe(false);
    expect(unliked.counts.likes).toBe(3);

    const bookmarked = withToggle(post(), BOOKMARK_TOGGLE, true);
    expect(bookmarked.viewer).toMatchObject({ liked: false, bookmarked: true });
    expect(bookmarked.counts).toEqual({ likes: 3, comments: 2, bookmarks: 2 });
  });

  it('changes no count when the flag is already so, and never goes below 0', () => {
    expect(withToggle(post({ liked: true }), LIKE_TOGGLE, true).counts.likes).toBe(3);
    expect(withToggle(post({ liked: true }, { likes: 0 }), LIKE_TOGGLE, false).counts.likes).toBe(0);
  });

  it('takes the server’s absolute count over the step', () => {
    const settled = withToggle(withToggle(post(), LIKE_TOGGLE, true), LIKE_TOGGLE, true, 10);
    expect(settled.viewer.liked).toBe(true);
    expect(settled.counts.likes).toBe(10);
    expect(withToggle(post(), LIKE_TOGGLE, false, -2).counts.likes).toBe(0);
  });

  it('takes back only the count’s step when the server was in that state already', () => {
    const optimistic = withToggle(post(), BOOKMARK_TOGGLE, true);
    const kept = withoutCountStep(optimistic, BOOKMARK_TOGGLE, true);
    expect(kept.viewer.bookmarked).toBe(true);
    expect(kept.counts.bookmarks).toBe(1);
    expect(withoutCountStep(post({}, { bookmarks: 0 }), BOOKMARK_TOGGLE, true).counts.bookmarks).toBe(0);
    expect(withoutCountStep(post({ liked: true }, { likes: 2 }), LIKE_TOGGLE, false).counts.likes).toBe(3);
  });
});
