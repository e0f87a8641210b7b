import { BILLING_TEXTS, CREATOR_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, creatorProcedureSaying, publicProcedure, router } from '../../trpc/init';
import { becomeCreator, featuredCreators, firstSteps } from './creators.service';

export const creatorsRouter = router({
  /** Up to 6 public creators, verified first, then premium, then newest. */
  featured: publicProcedure.query(({ ctx }) => featuredCreators(ctx)),

  /**
   * The signed-in user becomes a creator: profiles.is_creator and default media settings, in one
   * transaction, idempotent. Returns the spec's 'You are now a creator!'. Signed out:
   * UNAUTHORIZED 'You must be logged in to become a creator'.
   */
  become: authedProcedureSaying(CREATOR_TEXTS.signInRequired).mutation(({ ctx }) => becomeCreator(ctx, ctx.user.id)),

  /** The signed-in creator's first steps (verify, payout account, first tier, first post): which are done. */
  firstSteps: creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly }).query(({ ctx }) => firstSteps(ctx, ctx.user.id)),
});
