import type { InfiniteData } from '@tanstack/react-query';
import { Inbox, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { FEED_TEXTS } from '../../common/texts';
import { HydrateApart } from './hydrate-apart';
import { FirstImageProvider } from './image-priority';
import { cn } from '../lib/cn';
import { usePostList, type Post } from '../lib/post-cache';
import { EmptyState } from './empty-state';
import { LoadError } from './load-states';
import { LoadMoreSentinel } from './load-more-sentinel';

/** What PagedPosts reads of an infinite tRPC query over pages of posts (`{ items, nextCursor }`). */
export interface PostPagesQuery {
  data: InfiniteData<{ items: Post[] }, unknown> | undefined;
  isError: boolean;
  /** the last failure was a later page's (the pages shown stay) */
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  refetch: () => Promise<unknown>;
}

interface PagedPostsProps {
  query: PostPagesQuery;
  /** `list`: cards one under the other; `grid`: square tiles */
  layout: 'list' | 'grid';
  renderItem: (post: Post) => ReactNode;
  /** the list's accessible name */
  label: string;
  emptyText: string;
  emptyIcon?: LucideIcon;
  /** one placeholder (a card or a tile skeleton) and how many of them show while the first page loads */
  skeleton: ReactNode;
  skeletonCount: number;
  /** the grid's columns */
  gridClassName?: string;
  /** the infinite-scroll sentinel's test id */
  sentinelTestId?: string;
}

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4';

/**
 * A keyset-paged list of posts (profile Content, Drafts and Bookmarks tabs, a creator's content
 * grid, Explore): skeletons while the first page loads, 'Error loading content' with Try again
 * when it fails with nothing shown, the given empty text, then the posts, the next page fetched
 * as the end comes within 200 px (a later page that fails says so under the list, with Try again:
 * the sentinel waits for it, so the list never stops without a word). Posts being deleted are left out (deleted ones leave the cache).
 */
export function PagedPosts({
  query,
  layout,
  renderItem,
  label,
  emptyText,
  emptyIcon = Inbox,
  skeleton,
  skeletonCount,
  gridClassName = GRID,
  sentinelTestId = 'feed-sentinel',
}: PagedPostsProps) {
  const posts = usePostList(query.data);

  const container = layout === 'grid' ? gridClassName : 'flex flex-col gap-6';
  const placeholders = (count: number, status: string) => (
    <div aria-busy="true" className={container}>
      <span className="sr-only" role="status">
        {status}
      </span>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="contents">
          {skeleton}
        </div>
      ))}
    </div>
  );

  if (query.isError && !query.data) {
    return <LoadError message={FEED_TEXTS.loadError} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) return placeholders(skeletonCount, 'Loading posts');
  if (posts.length === 0 && !query.hasNextPage) return <EmptyState icon={emptyIcon}>{emptyText}</EmptyState>;

  const canPage = query.hasNextPage && !query.isFetchingNextPage && !query.isError;
  return (
    <div className="flex flex-col gap-6">
      <ul aria-label={label} className={cn(container)}>
        {posts.map((post, index) => (
          <li key={post.id} className="min-w-0">
            <FirstImageProvider first={index === 0}>
              <HydrateApart>{renderItem(post)}</HydrateApart>
            </FirstImageProvider>
          </li>
        ))}
      </ul>
      {query.isFetchingNextPage ? placeholders(layout === 'grid' ? Math.min(skeletonCount, 4) : 1, 'Loading more posts') : null}
      {query.isFetchNextPageError && !query.isFetchingNextPage ? <LoadError message={FEED_TEXTS.loadError} onRetry={() => void query.fetchNextPage()} /> : null}
      <LoadMoreSentinel enabled={canPage} onVisible={() => void query.fetchNextPage()} itemCount={posts.length} testId={sentinelTestId} end={!query.hasNextPage} />
    </div>
  );
}
