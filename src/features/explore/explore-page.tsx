import { Link } from '@tanstack/react-router';
import { Compass, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { postName } from '../../../common/post-name';
import { LIMITS } from '../../../common/limits';
import type { ExploreCategory } from '../../../common/profile-schemas';
import { FEED_TEXTS } from '../../../common/texts';
import { MediaTileSkeleton } from '../../components/media-tile-skeleton';
import { PagedPosts } from '../../components/paged-posts';
import { SearchInput } from '../../components/search-input';
import { Avatar } from '../../components/ui/avatar';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import type { Post } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';
import { CategoryChips } from './category-chips';
import { ExploreCreators } from './explore-creators';
import { EXPLORE_GRID, EXPLORE_PAGE } from './explore-page-skeleton';
import { exploreListOptions, exploreSearchInput } from './explore-search';

interface ExplorePageProps {
  q: string | undefined;
  categories: ExploreCategory[];
  onSearch: (q: string) => void;
  onCategoriesChange: (categories: ExploreCategory[]) => void;
  /** the post's square tile (from the route: features do not import each other) */
  renderTile: (post: Post) => ReactNode;
}

/**
 * Explore (spec part 1 §2, §5, §9): a search box (debounced, case-insensitive on creators' names
 * and post text), the category chips, matching creators, and a grid of posts, 8 per page with 8
 * skeleton cards while the first loads, more as the end comes into view. Private and hidden
 * creators never appear (the server leaves them out).
 */
export function ExplorePage({ q, categories, onSearch, onCategoriesChange, renderTile }: ExplorePageProps) {
  const posts = trpc.explore.search.useInfiniteQuery(exploreSearchInput(q, categories), exploreListOptions);
  const filtered = !!q || categories.length > 0;

  return (
    <div className={EXPLORE_PAGE}>
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2.5 text-3xl font-bold tracking-tight md:text-4xl">
          <Compass aria-hidden="true" className="size-7 text-violet-300 md:size-8" />
          Explore
        </h1>
        <p className="text-muted">Discover creators and their latest posts.</p>
      </header>

      <div className="flex flex-col gap-4">
        <SearchInput
          value={q ?? ''}
          onSearch={onSearch}
          debounceMs={LIMITS.profileSearchDebounceMs}
          label="Search creators and posts"
          placeholder="Search creators and posts"
          className="w-full md:max-w-xl"
        />
        <CategoryChips selected={categories} onChange={onCategoriesChange} />
      </div>

      <ExploreCreators q={q} categories={categories} />

      <section aria-labelledby="explore-posts-heading" className="flex flex-col gap-3">
        <h2 id="explore-posts-heading" className="text-lg font-semibold tracking-tight">
          {filtered ? 'Matching posts' : 'Latest posts'}
        </h2>
        <PagedPosts
          query={posts}
          layout="grid"
          gridClassName={EXPLORE_GRID}
          label="Explore posts"
          emptyText={filtered ? FEED_TEXTS.noSearchResults : FEED_TEXTS.empty}
          emptyIcon={filtered ? SearchX : undefined}
          skeleton={<MediaTileSkeleton withCaption testId="explore-skeleton" />}
          skeletonCount={LIMITS.exploreSkeletons}
          sentinelTestId="explore-sentinel"
          renderItem={(post) => <ExploreTile post={post} tile={renderTile(post)} />}
        />
      </section>
    </div>
  );
}

/** A grid tile with the post's title and its author under it. */
function ExploreTile({ post, tile }: { post: Post; tile: ReactNode }) {
  const { creator } = post;
  const name = creator.displayName || creator.username;
  const title = postName(post);
  return (
    <article aria-label={title} data-post-id={post.id} data-creator={creator.username} className="flex flex-col gap-2.5">
      {tile}
      <div className="flex min-w-0 items-start gap-2">
        <Link to="/$username" params={{ username: creator.username }} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
          <Avatar src={creator.avatarUrl} name={name} size="sm" ring={false} />
        </Link>
        <div className="flex min-w-0 flex-col">
          <Link to="/post/$id" params={{ id: post.id }} className="truncate text-sm font-semibold text-foreground hover:underline">
            {title}
          </Link>
          <span className="flex min-w-0 items-center gap-1 text-xs text-subtle">
            <Link to="/$username" params={{ username: creator.username }} className="truncate hover:text-foreground hover:underline">
              {name}
            </Link>
            {creator.isVerified ? <VerifiedBadge className="shrink-0 [&_svg]:size-3.5" /> : null}
          </span>
        </div>
      </div>
    </article>
  );
}
