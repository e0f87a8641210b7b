import { createFileRoute, useNavigate, useRouter } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useCallback } from 'react';
import { leadImageOf } from '../../common/image-sources';
import { POST_TEXTS } from '../../common/texts';
import { Button } from '../components/ui/button';
import { CommentsSection } from '../features/comments/comments-section';
import { commentsQueryOptions } from '../features/comments/comments-queries';
import { PostCardSkeleton } from '../components/post-card-skeleton';
import { PostCard } from '../features/posts/post-card';
import { postQueryOptions } from '../features/posts/post-queries';
import { usePageTitle } from '../lib/page-title';
import { usePostsBeingDeleted, type Post } from '../lib/post-cache';
import { errorCode, trpc } from '../lib/trpc';
import { TipButton } from '../features/subscriptions/tip-button';
import { PostMessage } from './-components/post-message';

export const Route = createFileRoute('/post/$id')({
  // its loader runs on the server too (src/entry-server.tsx; docs/adding-a-feature.md)
  ssr: true,
  // The page reads the same queries; not awaited, so the skeleton shows at once.
  loader: ({ context: { trpcUtils: utils, serverPage }, params }) => {
    const id = params.id.trim();
    if (!id) return;
    void utils.posts.byId.prefetch({ id }, postQueryOptions);
    void utils.comments.list.prefetch({ postId: id }, commentsQueryOptions);
    // On the server, rendered for visitors (a link someone shared), 404 when the post is not theirs to see.
    return serverPage?.(async () => {
      const post = await utils.posts.byId.ensureData({ id }, postQueryOptions);
      return { render: 'visitors', preview: { kind: 'post', post }, leadImage: leadImageOf(post, 'detail') };
    });
  },
  component: PostPage,
});

function renderComments(post: Post) {
  return <CommentsSection postId={post.id} />;
}

function renderTip(post: Post) {
  return <TipButton target={{ username: post.creator.username, name: post.creator.displayName || post.creator.username }} variant="ghost" size="sm" />;
}

/** The single post page (spec part 1 §2): Back, the post in its detail layout, its comments. */
function PostPage() {
  const { id: rawId } = Route.useParams();
  const id = rawId.trim();
  const navigate = useNavigate();
  const post = trpc.posts.byId.useQuery({ id }, { ...postQueryOptions, enabled: id.length > 0 });
  const deleting = usePostsBeingDeleted();
  const onDeleted = useCallback(() => void navigate({ to: '/' }), [navigate]);

  // a post deleted meanwhile (here or, live, elsewhere) is asked for again: NOT_FOUND
  const notFound = errorCode(post.error) === 'NOT_FOUND';
  usePageTitle(!id ? POST_TEXTS.idRequired : notFound ? POST_TEXTS.notFound : (post.data?.title ?? 'Post'));

  let body;
  if (!id) {
    body = <PostMessage title={POST_TEXTS.idRequired} />;
  } else if (notFound) {
    body = <PostMessage title={POST_TEXTS.notFound} />;
  } else if (post.isError && !post.data) {
    body = <PostMessage title={post.error.message || POST_TEXTS.notFound} retry={() => void post.refetch()} />;
  } else if (!post.data || deleting.has(id)) {
    body = <PostCardSkeleton />;
  } else {
    body = <PostCard post={post.data} layout="original" renderComments={renderComments} renderTip={renderTip} onDeleted={onDeleted} />;
  }

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 pt-6 pb-10 md:px-6 md:pt-8">
      <BackButton />
      {body}
    </div>
  );
}

/**
 * History back; if that leaves us on this post, on to / (spec part 1 §2). When this page is the
 * first of the app's history (opened from a link or a new tab) there is nothing of ours to go
 * back to, so it goes to / at once rather than out of the app.
 */
function BackButton() {
  const router = useRouter();
  const onBack = () => {
    if (!router.history.canGoBack()) {
      void router.navigate({ to: '/' });
      return;
    }
    // Decide on the history event itself, not after a fixed delay: a slow pop must not be mistaken
    // for "still here" (that would push / and drop the forward entry).
    const here = router.history.location.href;
    let settled = false;
    const unsubscribe = router.history.subscribe(() => {
      settled = true;
      unsubscribe();
      if (router.history.location.href === here) void router.navigate({ to: '/' });
    });
    router.history.back();
    setTimeout(() => {
      if (settled) return;
      unsubscribe();
      if (router.history.location.href === here) void router.navigate({ to: '/' });
    }, 3000);
  };
  return (
    <div>
      <Button variant="ghost" size="sm" onClick={onBack} className="-ml-2">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back
      </Button>
    </div>
  );
}
