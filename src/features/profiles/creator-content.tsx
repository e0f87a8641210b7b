import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCompactCount } from '../../../common/format';
import { FEED_TEXTS, PROFILE_TEXTS } from '../../../common/texts';
import { MediaTileSkeleton } from '../../components/media-tile-skeleton';
import { PagedPosts } from '../../components/paged-posts';
import { Avatar } from '../../components/ui/avatar';
import { SkeletonPerson } from '../../components/ui/skeleton';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { usePageTitle } from '../../lib/page-title';
import type { Post } from '../../lib/post-cache';
import { errorCode, trpc } from '../../lib/trpc';
import { profileListOptions, profilePostsInput, profileQueryOptions } from './profile-queries';
import { ProfileMessage } from './profile-states';

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4 lg:grid-cols-4';

/**
 * /{username}/content (spec part 1 §2: 'Creator content listing'): the creator's published posts
 * as a grid of media tiles, paged like the Content tab. 'Creator not found' for an unknown,
 * private or hidden creator.
 */
export function CreatorContent({ username, renderTile }: { username: string; renderTile: (post: Post) => ReactNode }) {
  const profile = trpc.profiles.byUsername.useQuery({ username }, profileQueryOptions);
  const posts = trpc.profiles.posts.useInfiniteQuery(profilePostsInput(username, 'all', undefined), profileListOptions);
  const notFound = errorCode(profile.error) === 'NOT_FOUND' || errorCode(posts.error) === 'NOT_FOUND';
  const creator = profile.data;
  const name = creator ? creator.displayName || creator.username : null;
  usePageTitle(notFound ? FEED_TEXTS.creatorNotFound : name ? `${name} · Content` : null);

  if (notFound) return <ProfileMessage title={PROFILE_TEXTS.creatorNotFound} />;
  if (profile.isError && !creator) {
    return <ProfileMessage title={FEED_TEXTS.loadError} description={profile.error.message} retry={() => void profile.refetch()} />;
  }

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-center gap-4">
        {creator ? (
          <>
            <Avatar src={creator.avatarUrl} name={name ?? creator.username} size="lg" ring={false} />
            <div className="min-w-0 flex-1">
              <div className="flex items-center gap-2">
                <h1 className="truncate text-2xl font-bold tracking-tight">{name}</h1>
                {creator.isVerified ? <VerifiedBadge className="shrink-0" /> : null}
              </div>
              <p className="text-sm text-subtle">
                @{creator.username} · {formatCompactCount(creator.postCount)} {creator.postCount === 1 ? 'post' : 'posts'}
              </p>
            </div>
            <Link
              to="/$username"
              params={{ username: creator.username }}
              className="inline-flex h-9 items-center gap-1.5 rounded-full px-3 text-sm font-semibold text-muted transition-colors hover:bg-surface-hover hover:text-foreground"
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              View profile
            </Link>
          </>
        ) : (
          <SkeletonPerson aria-busy="true" className="items-center gap-4" avatar="size-14" lines={['h-6 w-40', 'h-3.5 w-28']} linesClassName="flex flex-col gap-2">
            <span className="sr-only" role="status">
              Loading creator
            </span>
          </SkeletonPerson>
        )}
      </header>

      <PagedPosts
        query={posts}
        layout="grid"
        gridClassName={GRID}
        renderItem={renderTile}
        label="Content"
        emptyText={creator?.viewer.isOwner ? FEED_TEXTS.emptyYet : FEED_TEXTS.empty}
        skeleton={<MediaTileSkeleton />}
        skeletonCount={8}
        sentinelTestId="content-sentinel"
      />
    </div>
  );
}
