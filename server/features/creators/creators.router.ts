import { CREATOR_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, publicProcedure, router } from '../../trpc/init';
import { becomeCreator, featuredCreators } from './creators.service';

export const creatorsRouter = router({
  /** Up to 6 public creators, verified first, then premium, then newest. */
  featured: publicProcedure.query(({ ctx }) => featuredCreators(ctx)),

  /**
   * The signed-in user becomes a creator: profiles.is_creator and default media settings, in one
   * transaction, idempotent. Returns the spec's 'You are now a creator!'. Signed out:
   * UNAUTHORIZED 'You must be logged in to become a creator'.
   */
  become: authedProcedureSaying(CREATOR_TEXTS.signInRequired).mutation(({ ctx }) => becomeCreator(ctx, ctx.user.id)),
});
