import { createFileRoute } from '@tanstack/react-router';
import { PROFILE_TEXTS } from '../../common/texts';
import { PostCard } from '../features/posts/post-card';
import { CreatorContent } from '../features/profiles/creator-content';
import { readUsernameSegment } from '../../common/username-segment';
import { profileListOptions, profilePostsInput } from '../features/profiles/profile-queries';
import { ProfileMessage } from '../features/profiles/profile-states';
import { usePageTitle } from '../lib/page-title';
import type { Post } from '../lib/post-cache';

export const Route = createFileRoute('/$username/content')({
  loader: ({ context, params }) => {
    const { username } = readUsernameSegment(params.username);
    if (username) void context.trpcUtils.profiles.posts.prefetchInfinite(profilePostsInput(username, 'all', undefined), profileListOptions);
  },
  component: CreatorContentRoute,
});

function renderTile(post: Post) {
  return <PostCard post={post} layout="media" />;
}

function CreatorContentRoute() {
  const params = Route.useParams();
  const { username, error } = readUsernameSegment(params.username);
  return (
    <div className="mx-auto w-full max-w-5xl px-4 pt-6 pb-10 md:px-6 md:pt-8">
      {username ? <CreatorContent key={username} username={username} renderTile={renderTile} /> : <UsernameRequired message={error ?? PROFILE_TEXTS.usernameRequired} />}
    </div>
  );
}

function UsernameRequired({ message }: { message: string }) {
  usePageTitle(message);
  return <ProfileMessage title={message} />;
}
