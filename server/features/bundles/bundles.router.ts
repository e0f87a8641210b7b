import { SetBundlesInput } from '../../../common/bundle-schemas';
import { BILLING_TEXTS } from '../../../common/texts';
import { creatorProcedureSaying, router } from '../../trpc/init';
import { listMyBundles, setBundles } from './bundles.service';

/** A tier bought for 3, 6 or 12 periods at once (issue 27 item 5; docs/payments.md, Bundles): the creator's own tiers only. */
const tierProcedure = creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly });

export const bundlesRouter = router({
  listMine: tierProcedure.query(({ ctx }) => listMyBundles(ctx, ctx.user.id)),
  set: tierProcedure.input(SetBundlesInput).mutation(({ ctx, input }) => setBundles(ctx, ctx.user.id, input)),
});
