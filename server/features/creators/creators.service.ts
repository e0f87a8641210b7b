import { LIMITS } from '../../../common/limits';
import type { CreatorCardDto } from '../../../common/profile-dtos';
import { identityOf } from '../../../domain/people/verification';
import type { AppDeps } from '../../../core/deps';
import { CREATOR_TEXTS } from '../../../common/texts';
import { creatorCards } from '../../shared/creator-cards/creator-cards';
import { findFirstSteps, makeCreator } from './creators.queries';
import type { FirstStepsDto } from '../../../common/first-steps';

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

/**
 * A creator's first steps (issue 47 item 2): identity verified, a payout account with payouts
 * enabled, a tier a new fan can choose, a published post.
 */
export async function firstSteps(deps: Pick<AppDeps, 'db' | 'payments'>, userId: string): Promise<FirstStepsDto> {
  const row = await findFirstSteps(deps.db, userId);
  return {
    // the rule selling asks (domain/people/verification.ts): a test verification counts only without Stripe
    verify: identityOf(row, deps.payments.name).verified,
    payouts: row?.payout_status === 'enabled',
    tier: row?.has_tier === true,
    post: row?.has_post === true,
  };
}
