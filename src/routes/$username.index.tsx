import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PROFILE_TEXTS } from '../../common/texts';
import { CommentsSection } from '../features/comments/lazy-comments-section';
import { PostCard } from '../features/posts/post-card';
import { ProfilePage } from '../features/profiles/profile-page';
import { readUsernameSegment } from '../../common/username-segment';
import { profileListOptions, profilePostsInput, profileQueryOptions } from '../features/profiles/profile-queries';
import { ProfileSearch } from '../features/profiles/profile-search';
import { ProfileMessage } from '../features/profiles/profile-states';
import { SubscriptionPill } from '../features/subscriptions/subscription-pill';
import { TipButton } from '../features/subscriptions/tip-button';
import { usePageTitle } from '../lib/page-title';
import type { Post } from '../lib/post-cache';

export const Route = createFileRoute('/$username/')({
  // its loader runs on the server too (src/entry-server.tsx; docs/adding-a-feature.md)
  ssr: true,
  validateSearch: ProfileSearch,
  loaderDeps: ({ search }) => ({ q: search.q, view: search.view, tab: search.tab }),
  // The Content tab's first page starts with the navigation; the page reads the same query (the
  // header card's is started by the /$username layout).
  loader: ({ context: { trpcUtils: utils, serverPage }, params, deps }) => {
    const { username } = readUsernameSegment(params.username);
    if (!username) return;
    // On the server, rendered for visitors (a link someone shared), 404 when the profile is not theirs to see.
    const found = serverPage?.(async () => ({ render: 'visitors', preview: { kind: 'profile', profile: await utils.profiles.byUsername.ensureData({ username }, profileQueryOptions) } }));
    // A searched, filtered or other tab's list is not asked for on the server: a shared link opens
    // the plain profile, and each search would be a page of its own to render and keep.
    const searched = deps.tab !== undefined || deps.view !== undefined || deps.q !== undefined;
    if ((deps.tab && deps.tab !== 'content') || (serverPage && searched)) return found;
    const input = profilePostsInput(username, deps.view === 'media' ? 'media' : 'all', deps.q);
    void utils.profiles.posts.prefetchInfinite(input, profileListOptions);
    return found;
  },
  component: ProfileRoute,
});

function renderComments(post: Post) {
  return <CommentsSection postId={post.id} />;
}

function renderPost(post: Post) {
  return <PostCard post={post} layout="posts" renderComments={renderComments} />;
}

function renderTile(post: Post) {
  return <PostCard post={post} layout="media" />;
}

function renderSubscribed(creator: { id: string; name: string }) {
  return <SubscriptionPill creator={creator} />;
}

function renderTip(creator: { username: string; name: string }) {
  return <TipButton target={creator} variant="secondary" />;
}

function ProfileRoute() {
  const params = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { username, error } = readUsernameSegment(params.username);

  const onSearchChange = useCallback(
    (patch: Partial<ProfileSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true, resetScroll: false }),
    [navigate],
  );

  return (
    <div className="mx-auto w-full max-w-3xl px-4 pt-6 pb-10 md:px-6 md:pt-8">
      {username ? (
        <ProfilePage
          key={username}
          username={username}
          search={search}
          onSearchChange={onSearchChange}
          renderPost={renderPost}
          renderTile={renderTile}
          renderSubscribed={renderSubscribed}
          renderTip={renderTip}
        />
      ) : (
        <UsernameRequired message={error ?? PROFILE_TEXTS.usernameRequired} />
      )}
    </div>
  );
}

function UsernameRequired({ message }: { message: string }) {
  usePageTitle(message);
  return <ProfileMessage title={message} />;
}
