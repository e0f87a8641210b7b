import { LIMITS } from '../../../common/limits';
import type { CreatorCardDto } from '../../../common/profile-dtos';
import type { AppDeps } from '../../../core/deps';
import { CREATOR_TEXTS } from '../../../common/texts';
import { findCreatorCards, makeCreator, type CreatorCardFilter } from './creators.queries';

/**
 * Creator cards (the featured strip, Explore): creators who may be listed, with their real
 * active subscriber counts (the spec's fixed lookup is not copied; see DESIGN.md).
 */
export async function creatorCards(deps: Pick<AppDeps, 'db'>, filter: CreatorCardFilter): Promise<CreatorCardDto[]> {
  const rows = await findCreatorCards(deps.db, filter);
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    categories: row.categories,
    isVerified: row.verified_badge,
    isPremium: row.is_premium,
    subscriberCount: Number(row.subscriber_count),
  }));
}

/** The landing page's Featured Creators grid: the first cards with no filter. */
export function featuredCreators(deps: Pick<AppDeps, 'db'>): Promise<CreatorCardDto[]> {
  return creatorCards(deps, { q: null, categories: [], limit: LIMITS.featuredCreators });
}

export interface BecomeCreatorResult {
  isCreator: true;
  /** false when the user already was a creator (the call changes nothing then) */
  becameCreator: boolean;
  /** the spec's toast: 'You are now a creator!' */
  message: string;
}

/**
 * Any signed-in user becomes a creator (spec part 2 §4); safe to call twice. Every server copy
 * forgets the user's cached sessions, so the creator's next request passes as one wherever it lands.
 */
export async function becomeCreator(deps: Pick<AppDeps, 'db' | 'realtime'>, userId: string): Promise<BecomeCreatorResult> {
  const becameCreator = await makeCreator(deps.db, userId);
  if (becameCreator) await deps.realtime.forgetSessions({ userIds: [userId] });
  return { isCreator: true, becameCreator, message: CREATOR_TEXTS.becameCreator };
}
