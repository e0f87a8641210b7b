import { Images, LayoutList, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCompactCount } from '../../../common/format';
import { LIMITS } from '../../../common/limits';
import { FEED_TEXTS } from '../../../common/texts';
import { MediaTileSkeleton } from '../../components/media-tile-skeleton';
import { PagedPosts } from '../../components/paged-posts';
import { PostCardSkeleton } from '../../components/post-card-skeleton';
import { SearchInput } from '../../components/search-input';
import { cn } from '../../lib/cn';
import type { Post } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';
import { profileListOptions, profilePostsInput, type Profile } from './profile-queries';
import type { ProfileView } from './profile-search';

interface ContentTabProps {
  profile: Profile;
  /** the search in force (the URL's ?q) */
  q: string | undefined;
  view: ProfileView;
  onSearch: (q: string) => void;
  onViewChange: (view: ProfileView) => void;
  renderPost: (post: Post) => ReactNode;
  renderTile: (post: Post) => ReactNode;
}

/**
 * The Content tab (spec part 1 §2, §4, §9): the creator's published posts, 5 per page, as feed
 * cards or as a grid of image and video tiles; a search box (debounced 300 ms) matching the
 * post text's words or a hashtag. Premium posts come locked from the server for non-subscribers.
 */
export function ContentTab({ profile, q, view, onSearch, onViewChange, renderPost, renderTile }: ContentTabProps) {
  const kind = view === 'media' ? 'media' : 'all';
  const posts = trpc.profiles.posts.useInfiniteQuery(profilePostsInput(profile.username, kind, q), profileListOptions);
  const emptyText = q ? FEED_TEXTS.noSearchResults : profile.viewer.isOwner ? FEED_TEXTS.emptyYet : FEED_TEXTS.empty;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          value={q ?? ''}
          onSearch={onSearch}
          debounceMs={LIMITS.profileSearchDebounceMs}
          label={`Search ${profile.displayName || profile.username}’s posts`}
          placeholder="Search posts or #hashtags"
          className="min-w-0 flex-1"
        />
        <div role="group" aria-label="Show" className="flex shrink-0 gap-1 self-start rounded-full border border-border bg-canvas p-1 sm:self-auto">
          <ViewButton pressed={view === 'posts'} onClick={() => onViewChange('posts')} icon={<LayoutList aria-hidden="true" className="size-4" />}>
            Posts <Count value={profile.postCount} />
          </ViewButton>
          <ViewButton pressed={view === 'media'} onClick={() => onViewChange('media')} icon={<Images aria-hidden="true" className="size-4" />}>
            Media <Count value={profile.mediaCount} />
          </ViewButton>
        </div>
      </div>

      {q ? (
        <p role="status" className="-mt-1 text-sm text-muted">
          Showing results for <span className="font-semibold text-foreground">“{q}”</span>
        </p>
      ) : null}

      <PagedPosts
        query={posts}
        layout={view === 'media' ? 'grid' : 'list'}
        renderItem={view === 'media' ? renderTile : renderPost}
        label={view === 'media' ? 'Media' : 'Posts'}
        emptyText={emptyText}
        emptyIcon={q ? SearchX : undefined}
        skeleton={view === 'media' ? <MediaTileSkeleton /> : <PostCardSkeleton />}
        skeletonCount={view === 'media' ? 6 : 2}
        sentinelTestId="profile-sentinel"
      />
    </div>
  );
}

function Count({ value }: { value: number }) {
  return <span className="rounded-full bg-surface-hover px-1.5 text-xs tabular-nums text-muted">{formatCompactCount(value)}</span>;
}

function ViewButton({ pressed, onClick, icon, children }: { pressed: boolean; onClick: () => void; icon: ReactNode; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'inline-flex h-9 items-center gap-1.5 rounded-full px-3.5 text-sm font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
        pressed ? 'bg-surface-raised text-foreground shadow' : 'text-muted hover:text-foreground',
      )}
    >
      {icon}
      {children}
    </button>
  );
}
