import { LIMITS } from '../../../common/limits';
import type { AppDeps } from '../../../core/deps';
import { CREATOR_TEXTS } from '../../../common/texts';
import { findFeaturedCreators, makeCreator } from './creators.queries';

/** A card of the landing page's Featured Creators grid. */
export interface FeaturedCreatorDto {
  id: string;
  username: string;
  name: string;
  avatarUrl: string | null;
  isVerified: boolean;
  isPremium: boolean;
  /** real count of active subscribers (the spec's fixed lookup is not copied; see DESIGN.md) */
  subscriberCount: number;
}

export async function featuredCreators(deps: Pick<AppDeps, 'db'>): Promise<FeaturedCreatorDto[]> {
  const rows = await findFeaturedCreators(deps.db, LIMITS.featuredCreators);
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    name: row.display_name,
    avatarUrl: row.avatar_url,
    isVerified: row.is_verified,
    isPremium: row.is_premium,
    subscriberCount: Number(row.subscriber_count),
  }));
}

export interface BecomeCreatorResult {
  isCreator: true;
  /** false when the user already was a creator (the call changes nothing then) */
  becameCreator: boolean;
  /** the spec's toast: 'You are now a creator!' */
  message: string;
}

/** Any signed-in user becomes a creator (spec part 2 §4); safe to call twice. */
export async function becomeCreator(deps: Pick<AppDeps, 'db'>, userId: string): Promise<BecomeCreatorResult> {
  const becameCreator = await makeCreator(deps.db, userId);
  return { isCreator: true, becameCreator, message: CREATOR_TEXTS.becameCreator };
}
