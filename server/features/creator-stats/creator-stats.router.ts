import { SubscribersInput } from '../../../common/billing-schemas';
import { BILLING_TEXTS } from '../../../common/texts';
import { creatorProcedureSaying, router } from '../../trpc/init';
import { myEarnings, mySubscribers } from './creator-stats.service';

const creatorOnly = creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly });

/** What a creator sees of their money: their own figures only (the caller's id, never an input). */
export const creatorStatsRouter = router({
  subscribers: creatorOnly.input(SubscribersInput).query(({ ctx, input }) => mySubscribers(ctx, ctx.user.id, input.cursor)),
  earnings: creatorOnly.query(({ ctx }) => myEarnings(ctx, ctx.user.id)),
});
