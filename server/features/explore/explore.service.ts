import type { CreatorCardDto } from '../../../common/profile-dtos';
import { ExploreCreatorsInput, ExploreSearchInput } from '../../../common/profile-schemas';
import type { AppDeps } from '../../../core/deps';
import { explorePage, type FeedPage } from '../posts/posts.service';
import { findExploreCreators } from './explore.queries';

type Deps = Pick<AppDeps, 'db'>;

/**
 * Explore's grid: posts of public creators matching the search and the chips, newest first,
 * as feed cards (premium posts locked for non-subscribers as everywhere). Private and hidden
 * creators never appear, not even to themselves.
 */
export async function search(deps: Deps, viewerId: string, input: ExploreSearchInput): Promise<FeedPage> {
  const { q, categories, cursor, limit } = ExploreSearchInput.parse(input);
  return explorePage(deps, viewerId, { q: q || null, categories, cursor: cursor ?? null, limit });
}

/** Explore's creator cards for the same search and chips. */
export async function creators(deps: Deps, input: ExploreCreatorsInput): Promise<CreatorCardDto[]> {
  const { q, categories, limit } = ExploreCreatorsInput.parse(input);
  const rows = await findExploreCreators(deps.db, { q: q || null, categories, limit });
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    categories: row.categories,
    isVerified: row.is_verified,
    isPremium: row.is_premium,
    subscriberCount: Number(row.subscriber_count),
  }));
}
