import type { CreatorCardDto } from '../../../common/profile-dtos';
import type { PostPageDto } from '../../../common/post-dtos';
import type { ExploreCreatorsInput, ExploreSearchInput } from '../../../common/profile-schemas';
import type { AppDeps } from '../../../core/deps';
import { creatorCards } from '../../shared/creator-cards/creator-cards';
import { cardPage } from '../../shared/post-cards/post-cards';
import { findExplorePage } from './explore.queries';

type Deps = Pick<AppDeps, 'db'>;

/**
 * Explore's grid: posts of public creators matching the search and the chips, newest first,
 * as feed cards (premium posts locked for non-subscribers as everywhere). Private and hidden
 * creators never appear, not even to themselves.
 */
export async function search(deps: Deps, viewerId: string, { q, categories, cursor, limit }: ExploreSearchInput): Promise<PostPageDto> {
  return cardPage(viewerId, await findExplorePage(deps.db, { viewerId, q: q || null, categories, cursor: cursor ?? null, limit }), limit);
}

/** Explore's creator cards for the same search and chips. */
export async function creators(deps: Deps, { q, categories, limit }: ExploreCreatorsInput): Promise<CreatorCardDto[]> {
  return creatorCards(deps, { q: q || null, categories, limit });
}
