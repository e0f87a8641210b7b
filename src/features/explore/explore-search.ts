import { EXPLORE_CATEGORIES } from '../../../common/enums';
import { CACHE, PROFILE_LIMITS } from '../../../common/limits';
import type { ExploreCategory } from '../../../common/profile-schemas';
import type { PostPage } from '../../lib/post-cache';
import { searchTextParam, searchValidator, stringParam } from '../../lib/search-params';

/**
 * /explore?q=&categories=Art,Music: the search and the chips live in the URL (shareable, Back
 * works). Categories are one comma-separated value, read case-insensitively; unknown names and
 * anything malformed are dropped, never an error page.
 */
export interface ExploreSearch {
  q?: string;
  categories?: string;
}
export const ExploreSearch = searchValidator<ExploreSearch>({ q: searchTextParam, categories: stringParam(200) });

/** The chips in the URL's value, in the spec's order (Art, Music, Gaming, Technology), once each. */
export function parseCategories(value: string | undefined): ExploreCategory[] {
  const wanted = new Set((value ?? '').split(',').map((v) => v.trim().toLowerCase()));
  return EXPLORE_CATEGORIES.filter((c) => wanted.has(c.toLowerCase()));
}

/** The URL value of a set of chips; undefined (no parameter) for none. */
export function formatCategories(categories: readonly ExploreCategory[]): string | undefined {
  const list = EXPLORE_CATEGORIES.filter((c) => categories.includes(c));
  return list.length ? list.join(',') : undefined;
}

/** Explore's grid: 8 posts per page (one row of the 8 skeleton cards). */
export function exploreSearchInput(q: string | undefined, categories: ExploreCategory[]) {
  return { q: q || undefined, categories, limit: PROFILE_LIMITS.explorePageSize };
}

/** The creators strip: the same search (on names) and chips. */
export function exploreCreatorsInput(q: string | undefined, categories: ExploreCategory[]) {
  return { q: q || undefined, categories, limit: PROFILE_LIMITS.exploreCreatorsLimit };
}

/** Explore's cache times (spec part 1 §9: fresh 2 minutes, kept 15 minutes). */
export const exploreQueryOptions = {
  staleTime: CACHE.explore.staleTime,
  gcTime: CACHE.explore.gcTime,
};

export const exploreListOptions = {
  ...exploreQueryOptions,
  getNextPageParam: (lastPage: PostPage) => lastPage.nextCursor,
};
