import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ExploreCategory } from '../../common/profile-schemas';
import { AUTH_TEXTS } from '../../common/texts';
import { ExplorePage } from '../features/explore/explore-page';
import { ExplorePageSkeleton } from '../features/explore/explore-page-skeleton';
import {
  exploreCreatorsInput,
  exploreListOptions,
  exploreQueryOptions,
  exploreSearchInput,
  ExploreSearch,
  formatCategories,
  parseCategories,
} from '../features/explore/explore-search';
import { PostCard } from '../features/posts/post-card';
import { usePageTitle } from '../lib/page-title';
import type { Post } from '../lib/post-cache';
import { useGateOnSessionLoss } from '../lib/session';

/**
 * /explore, behind the `_authed` gate (spec part 1 §6): a visitor's path is stored, the toast
 * 'Authentication Required - Please sign in to access the explore page' shows, and they go to
 * the sign-in tab; signing in brings them back here.
 */
export const Route = createFileRoute('/_authed/explore')({
  staticData: { signInRequired: AUTH_TEXTS.exploreRequiresAuth },
  validateSearch: ExploreSearch,
  loaderDeps: ({ search }) => ({ q: search.q, categories: search.categories }),
  // Runs after the gate: the grid's first page and the creators start with the navigation.
  loader: ({ context, deps }) => {
    const categories = parseCategories(deps.categories);
    void context.trpcUtils.explore.search.prefetchInfinite(exploreSearchInput(deps.q, categories), exploreListOptions);
    void context.trpcUtils.explore.creators.prefetch(exploreCreatorsInput(deps.q, categories), exploreQueryOptions);
  },
  component: ExploreRoute,
  // shown by the _authed gate while the session is checked (no black screen, issue 14 item 4)
  pendingComponent: ExplorePageSkeleton,
});

function renderTile(post: Post) {
  return <PostCard post={post} layout="media" />;
}

function ExploreRoute() {
  usePageTitle('Explore');
  const { q, categories: rawCategories } = Route.useSearch();
  const navigate = Route.useNavigate();
  const categories = parseCategories(rawCategories);
  // spared the 'Session Expired' toast (spec part 1 §4), /explore still needs a session
  useGateOnSessionLoss();

  const onSearch = useCallback(
    (next: string) => void navigate({ search: (prev) => ({ ...prev, q: next || undefined }), replace: true, resetScroll: false }),
    [navigate],
  );
  const onCategoriesChange = useCallback(
    (next: ExploreCategory[]) =>
      void navigate({ search: (prev) => ({ ...prev, categories: formatCategories(next) }), replace: true, resetScroll: false }),
    [navigate],
  );

  return <ExplorePage q={q} categories={categories} onSearch={onSearch} onCategoriesChange={onCategoriesChange} renderTile={renderTile} />;
}
