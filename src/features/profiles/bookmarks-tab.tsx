import { Bookmark } from 'lucide-react';
import type { ReactNode } from 'react';
import { FEED_TEXTS } from '../../../common/texts';
import { PagedPosts } from '../../components/paged-posts';
import { PostCardSkeleton } from '../../components/post-card-skeleton';
import type { Post } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';
import { BOOKMARKS_INPUT, profileListOptions } from './profile-queries';

/**
 * The owner's Bookmarks tab (spec part 1 §2, §7): the posts they bookmarked, newest bookmark
 * first, 5 per page, as feed cards (locked where the access rule says); read again on every
 * visit, since bookmarks are made all over the app. 'No bookmarked posts yet' when empty.
 */
export function BookmarksTab({ renderPost }: { renderPost: (post: Post) => ReactNode }) {
  const bookmarks = trpc.bookmarks.list.useInfiniteQuery(BOOKMARKS_INPUT, { ...profileListOptions, refetchOnMount: 'always' });
  return (
    <PagedPosts
      query={bookmarks}
      layout="list"
      label="Bookmarked posts"
      emptyText={FEED_TEXTS.noBookmarks}
      emptyIcon={Bookmark}
      skeleton={<PostCardSkeleton />}
      skeletonCount={2}
      sentinelTestId="bookmarks-sentinel"
      renderItem={renderPost}
    />
  );
}
