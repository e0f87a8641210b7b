import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PostCardSkeleton } from '../components/post-card-skeleton';
import { CommentsSection } from '../features/comments/lazy-comments-section';
import { leadImageOf } from '../../common/image-sources';
import { FeaturedCreators } from '../features/creators/featured-creators';
import { FEED_INPUT, feedQueryOptions } from '../features/feed/feed-queries';
import { FeedSection } from '../features/feed/feed-section';
import { PostCard } from '../features/posts/post-card';
import { OptimisticPostCard } from '../features/uploads/optimistic-post-card';
import { isOptimisticPost, usePendingPosts, withPendingPosts } from '../features/uploads/pending-posts';
import { usePageTitle } from '../lib/page-title';
import type { Post } from '../lib/post-cache';
import { useMe } from '../lib/session';
import { LandingHero } from './-components/landing-hero';

export const Route = createFileRoute('/')({
  // its loader runs on the server too (src/entry-server.tsx; docs/adding-a-feature.md)
  ssr: true,
  // Start the requests with the navigation (not awaited: both sections have skeletons). The feed
  // component reads the same infinite query and refetches it on every return to /.
  loader: ({ context: { trpcUtils: utils, serverPage } }) => {
    void utils.creators.featured.prefetch();
    const feed = utils.posts.feed.prefetchInfinite(FEED_INPUT, feedQueryOptions);
    // On the server, rendered for everyone: a visitor's largest paint is the landing's hero, a
    // signed-in fan's the feed's first picture (preloaded), with the shell's two unread badges.
    return serverPage?.(async () => {
      const me = await utils.auth.me.ensureData();
      if (!me) return { render: 'everyone', preview: { kind: 'site' } };
      await Promise.all([feed, utils.messages.unreadCount.prefetch(), utils.notifications.unreadCount.prefetch()]);
      const first = utils.posts.feed.getInfiniteData(FEED_INPUT)?.pages[0]?.items[0];
      return { render: 'everyone', preview: { kind: 'site' }, leadImage: leadImageOf(first, 'feed') };
    });
  },
  component: HomePage,
  pendingComponent: HomeSkeleton,
});

function HomeSkeleton() {
  return (
    <div aria-busy="true" className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 pt-6 md:px-6 md:pt-8">
      <span className="sr-only" role="status">
        Loading
      </span>
      <PostCardSkeleton />
      <PostCardSkeleton />
    </div>
  );
}

function renderComments(post: Post) {
  return <CommentsSection postId={post.id} />;
}

function renderPost(post: Post) {
  // the creator's just-published upload, until the real post replaces it (features/uploads)
  if (isOptimisticPost(post)) return <OptimisticPostCard post={post} />;
  return <PostCard post={post} layout="posts" renderComments={renderComments} />;
}

function HomePage() {
  usePageTitle(null);
  const me = useMe();
  const signedIn = !!me.data;
  // the creator's uploads still being processed, in front of the feed
  const pending = usePendingPosts();
  const lead = useCallback((posts: Post[]) => withPendingPosts(pending, posts), [pending]);

  // While the first session check is out, the feed column's skeletons (no blank page, and
  // neither the landing nor the feed shown to the wrong person; issue 14 item 4).
  if (me.isPending) return <HomeSkeleton />;

  // Signed in, the feed comes first: the featured creators are a strip in the feed's column
  // above it, not a grid to scroll past (on a phone the first post shows at once).
  if (signedIn) {
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col px-4 pt-6 md:px-6 md:pt-8">
        <h1 className="sr-only">Home</h1>
        <FeaturedCreators layout="strip" />
        <FeedSection renderPost={renderPost} lead={lead} />
      </div>
    );
  }
  return (
    <div className="flex flex-col">
      <LandingHero />
      <div className="mx-auto w-full max-w-7xl px-4 md:px-6">
        <FeaturedCreators />
      </div>
      <div className="mx-auto w-full max-w-2xl px-4 md:px-6">
        <FeedSection renderPost={renderPost} lead={lead} />
      </div>
    </div>
  );
}
