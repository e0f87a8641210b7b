import { TierIdInput, TierInput, UpdateTierInput } from '../../../common/billing-schemas';
import { BILLING_TEXTS } from '../../../common/texts';
import { creatorProcedureSaying, router } from '../../trpc/init';
import { createTier, editTier, listMyTiers, removeTier } from './tiers.service';

/** Tier actions are the signed-in creator's, on their own tiers only (every id is checked against the caller). */
export const tierProcedure = creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly });

export const tiersRouter = router({
  /** The caller's tiers by price ascending (archived last), with active subscribers per tier. */
  listMine: tierProcedure.query(({ ctx }) => listMyTiers(ctx, ctx.user.id)),
  create: tierProcedure.input(TierInput).mutation(({ ctx, input }) => createTier(ctx, ctx.user.id, input)),
  update: tierProcedure.input(UpdateTierInput).mutation(({ ctx, input }) => editTier(ctx, ctx.user.id, input)),
  /** Deletes, or archives a tier someone subscribed to: `{ outcome, message }`. */
  delete: tierProcedure.input(TierIdInput).mutation(({ ctx, input }) => removeTier(ctx, ctx.user.id, input.id)),
});
