import { Link } from '@tanstack/react-router';
import { ArrowUp, Inbox, LockKeyhole, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LIMITS } from '../../../common/limits';
import { FEED_TEXTS, POST_TEXTS } from '../../../common/texts';
import { CallToActionBadge, CallToActionCard } from '../../components/call-to-action-card';
import { HydrateApart } from '../../components/hydrate-apart';
import { FirstImageProvider } from '../../components/image-priority';
import { LoadMoreSentinel } from '../../components/load-more-sentinel';
import { LoadError, LoadingPlaceholder } from '../../components/load-states';
import { PostCardSkeleton } from '../../components/post-card-skeleton';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { forgetFirstData, refetchUnlessFromPage } from '../../lib/first-data';
import { usePostList, type Post } from '../../lib/post-cache';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { useMe } from '../../lib/session';
import { trpc } from '../../lib/trpc';
import { FEED_INPUT, feedQueryOptions } from './feed-queries';
import { usePostsViewed } from './use-posts-viewed';

const SKELETONS = 3;

/**
 * The home feed (spec part 1 §2, §4, §8, §9): cursor pages of 5 newest-first posts, the next
 * one fetched when the sentinel under the list comes within 200 px of the viewport; refetched
 * each time / is shown; a floating Refresh button; skeleton cards while loading, 'Error loading
 * content' when the load fails with nothing cached, the empty texts. Posts being deleted, or
 * deleted elsewhere, are left out.
 *
 * Visitors see the first 3 posts; from there the sign-up prompt and blurred 'Content Locked'
 * cards (a teaser: what media is served is the server's decision), and paging stops.
 *
 * Posts published by others while the feed is open are not fetched one by one: a pill at the top
 * says how many there are ('3 new posts') and loads them when pressed, as Mastodon and X do.
 *
 * The card itself comes from the route (`renderPost`), and so may cards in front of the list
 * (`lead`: the creator's pending uploads): features do not import each other.
 */
export function FeedSection({ renderPost, lead }: { renderPost: (post: Post) => ReactNode; lead?: (posts: Post[]) => Post[] }) {
  const me = useMe();
  const visitor = me.data === null;
  const feed = trpc.posts.feed.useInfiniteQuery(FEED_INPUT, { ...feedQueryOptions, refetchOnMount: refetchUnlessFromPage });
  // once the feed leaves the screen, coming back to it asks again (the page's data is old by then)
  useEffect(() => forgetFirstData, []);
  const { viewed, countView } = usePostsViewed();
  const posts = usePostList(feed.data, lead);
  const newPosts = useNewPosts(posts, me.data?.id ?? null);
  const heading = useRef<HTMLHeadingElement>(null);

  const refetch = () => {
    newPosts.clear();
    void feed.refetch();
  };
  const showNewPosts = () => {
    refetch();
    heading.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  };

  const unlocked = visitor ? LIMITS.anonymousUnblurredPosts : Infinity;
  const locked = posts.length > unlocked;
  const canPage = feed.hasNextPage && !locked && !feed.isFetchingNextPage && !feed.isError;

  let body: ReactNode;
  if (feed.isError && !feed.data) {
    body = <LoadError message={FEED_TEXTS.loadError} onRetry={() => void feed.refetch()} />;
  } else if (!feed.data) {
    body = (
      <LoadingPlaceholder label="Loading posts" className="gap-6">
        {Array.from({ length: SKELETONS }, (_, i) => (
          <PostCardSkeleton key={i} />
        ))}
      </LoadingPlaceholder>
    );
  } else if (posts.length === 0) {
    body = (
      <div className="flex flex-col items-center gap-3 rounded-card border border-dashed border-border px-6 py-14 text-center">
        <Inbox aria-hidden="true" className="size-7 text-subtle" />
        <p className="text-muted">{visitor ? FEED_TEXTS.empty : FEED_TEXTS.emptyYet}</p>
      </div>
    );
  } else {
    body = (
      <ol className="flex flex-col gap-6" aria-label="Posts">
        {posts.map((post, index) => {
          const isLocked = index >= unlocked;
          return (
            <li key={post.id} className="flex flex-col gap-6">
              {isLocked ? (
                <LockedPost>
                  <HydrateApart>{renderPost(post)}</HydrateApart>
                </LockedPost>
              ) : (
                <>
                  {visitor ? <CountView postId={post.id} countView={countView} /> : null}
                  <FirstImageProvider first={index === 0}>
                    <HydrateApart>{renderPost(post)}</HydrateApart>
                  </FirstImageProvider>
                </>
              )}
              {visitor && index === unlocked - 1 && (locked || viewed >= unlocked) ? <SignUpPrompt /> : null}
            </li>
          );
        })}
      </ol>
    );
  }

  return (
    <section aria-labelledby="feed-heading" className="relative flex flex-col gap-6 pt-10 md:pt-14">
      <h2 ref={heading} id="feed-heading" className="pr-16 text-2xl font-bold tracking-tight md:pr-36 md:text-3xl lg:pr-0">
        {visitor ? 'Latest posts' : 'Your feed'}
      </h2>
      <NewPostsPill count={newPosts.count} onShow={showNewPosts} />
      {body}
      {feed.isFetchingNextPage ? (
        <LoadingPlaceholder label="Loading more posts" className="gap-6">
          <PostCardSkeleton />
        </LoadingPlaceholder>
      ) : null}
      {feed.isFetchNextPageError && !feed.isFetchingNextPage ? <LoadError message={FEED_TEXTS.loadError} onRetry={() => void feed.fetchNextPage()} /> : null}
      <LoadMoreSentinel enabled={canPage} onVisible={() => void feed.fetchNextPage()} itemCount={posts.length} end={feed.data !== undefined && !feed.hasNextPage} />
      {feed.data && posts.length > 0 && !feed.hasNextPage && !locked && !feed.isError ? (
        <p className="py-4 text-center text-sm text-muted">{FEED_TEXTS.caughtUp}</p>
      ) : null}
      <RefreshButton onRefresh={refetch} />
    </section>
  );
}

/**
 * Posts published by others since the feed was shown (`post:published` to the feed room), less
 * those it holds by now. The creator's own posts are put in place at once (features/uploads).
 */
function useNewPosts(posts: Post[], myId: string | null) {
  const [published, setPublished] = useState<ReadonlySet<string>>(() => new Set());
  useRealtimeEvent('post:published', ({ postId, creatorId }) => {
    if (creatorId === myId) return;
    setPublished((ids) => (ids.has(postId) ? ids : new Set(ids).add(postId)));
  });
  const count = useMemo(() => {
    if (published.size === 0) return 0;
    const shown = new Set(posts.map((post) => post.id));
    return [...published].filter((id) => !shown.has(id)).length;
  }, [published, posts]);
  const clear = useCallback(() => setPublished(new Set()), []);
  return { count, clear };
}

/** 'N new posts' at the top of the feed while there are any; pressed, the feed loads them. */
function NewPostsPill({ count, onShow }: { count: number; onShow: () => void }) {
  return (
    <div aria-live="polite" className="pointer-events-none sticky top-20 z-20 -my-3 flex h-0 justify-center overflow-visible">
      {count > 0 ? (
        <button
          type="button"
          onClick={onShow}
          className={cn(
            'pointer-events-auto flex h-10 items-center gap-2 rounded-full px-4 text-sm font-semibold text-white',
            'bg-gradient-accent shadow-xl shadow-accent/30 ring-1 ring-white/10 transition hover:brightness-110 active:brightness-95',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
          )}
        >
          <ArrowUp aria-hidden="true" className="size-4" />
          {FEED_TEXTS.newPosts(count)}
        </button>
      ) : null}
    </div>
  );
}

/** Counts a visitor's view of a post when it is shown. */
function CountView({ postId, countView }: { postId: string; countView: (postId: string) => void }) {
  useEffect(() => countView(postId), [postId, countView]);
  return null;
}

/**
 * The floating Refresh button; its spinner turns for the spec's 1 second. It never covers a post
 * or the footer: it sticks to the bottom of the viewport only within the feed's section, in the
 * gutter beside the feed column where there is one (lg and up); narrower, the column has no
 * gutter, so it sits in the heading's row at the top of the feed instead of over the posts.
 */
function RefreshButton({ onRefresh }: { onRefresh: () => void }) {
  const [spinning, setSpinning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const onClick = () => {
    onRefresh();
    setSpinning(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setSpinning(false), LIMITS.refreshSpinnerMs);
  };

  return (
    <div
      data-testid="refresh-dock"
      className="pointer-events-none absolute top-10 right-0 h-12 md:top-14 lg:sticky lg:top-auto lg:right-auto lg:bottom-8 lg:-mt-6 lg:h-0 lg:self-end"
    >
      <button
        type="button"
        onClick={onClick}
        aria-label="Refresh feed"
        aria-busy={spinning || undefined}
        title="Refresh"
        className={cn(
          'pointer-events-auto flex h-10 items-center gap-2 rounded-full px-3 text-sm font-semibold text-white md:h-11 md:px-4',
          'lg:absolute lg:bottom-0 lg:left-full lg:ml-8 lg:h-12 lg:px-5',
          'bg-gradient-accent shadow-xl shadow-accent/30 ring-1 ring-white/10 transition hover:brightness-110 active:brightness-95',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
        )}
      >
        <RefreshCw aria-hidden="true" className={cn('size-5', spinning && 'animate-spin')} />
        <span className="hidden md:inline">Refresh</span>
      </button>
    </div>
  );
}

/** The visitor's prompt after the 3 posts they may see. */
function SignUpPrompt() {
  return (
    <CallToActionCard as="aside" headingId="signup-prompt-heading" tone="violet" className="px-6 py-8 text-center">
      <CallToActionBadge tone="violet" className="mx-auto size-12">
        <LockKeyhole aria-hidden="true" className="size-5" />
      </CallToActionBadge>
      <h3 id="signup-prompt-heading" className="mt-4 text-xl font-bold tracking-tight">
        {POST_TEXTS.contentLocked.title}
      </h3>
      <p className="mx-auto mt-2 max-w-md text-muted">{POST_TEXTS.contentLocked.description}</p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/auth" search={{ tab: 'signup' }} className={buttonClasses({ size: 'md' })}>
          Join for free
        </Link>
        <Link to="/auth" search={{ tab: 'signin' }} className={buttonClasses({ size: 'md', variant: 'secondary' })}>
          I have an account
        </Link>
      </div>
    </CallToActionCard>
  );
}

/** A post past the visitor's allowance: blurred, inert, under the 'Content Locked' overlay. */
function LockedPost({ children }: { children: ReactNode }) {
  return (
    <div data-testid="locked-post" className="relative overflow-hidden rounded-card">
      <div inert aria-hidden="true" className="pointer-events-none blur-lg select-none saturate-50">
        {children}
      </div>
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-canvas/40 p-6 text-center">
        <span className="flex size-11 items-center justify-center rounded-full bg-black/50 text-violet-200 ring-1 ring-white/10">
          <LockKeyhole aria-hidden="true" className="size-5" />
        </span>
        <p className="text-lg font-semibold text-white">{POST_TEXTS.contentLocked.title}</p>
        <p className="max-w-sm text-sm text-foreground/80">{POST_TEXTS.contentLocked.description}</p>
      </div>
    </div>
  );
}
