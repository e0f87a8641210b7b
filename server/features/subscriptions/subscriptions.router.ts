import { PremiumTierInput, SubscribeInput, SubscribePageInput, SubscriptionIdInput, UpgradePremiumInput } from '../../../common/billing-schemas';
import { BILLING_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, publicProcedure, router } from '../../trpc/init';
import {
  mySubscriptions,
  premiumTier,
  providerInfo,
  setCancel,
  subscribe,
  subscribePage,
  upgradePremium,
} from './subscriptions.service';

/** Signed out: UNAUTHORIZED 'You must be logged in to subscribe' (spec part 2 §8). */
const subscriberProcedure = authedProcedureSaying(BILLING_TEXTS.signInToSubscribe);

export const subscriptionsRouter = router({
  /** /{username}/subscribe: creator, live tiers, premium posts by kind, the viewer's subscription. */
  subscribePage: publicProcedure.input(SubscribePageInput).query(({ ctx, input }) => subscribePage(ctx, ctx.user?.id ?? null, input.username)),
  /** One charge, one subscription per idempotency key (docs/payments.md). */
  subscribe: subscriberProcedure.input(SubscribeInput).mutation(({ ctx, input }) => subscribe(ctx, ctx.user, input)),
  premiumTier: publicProcedure.input(PremiumTierInput).query(({ ctx, input }) => premiumTier(ctx, input)),
  upgradePremium: subscriberProcedure.input(UpgradePremiumInput).mutation(({ ctx, input }) => upgradePremium(ctx, ctx.user, input)),
  mine: subscriberProcedure.query(({ ctx }) => mySubscriptions(ctx, ctx.user.id)),
  cancel: subscriberProcedure.input(SubscriptionIdInput).mutation(({ ctx, input }) => setCancel(ctx, ctx.user.id, input.id, true)),
  resume: subscriberProcedure.input(SubscriptionIdInput).mutation(({ ctx, input }) => setCancel(ctx, ctx.user.id, input.id, false)),
  provider: publicProcedure.query(({ ctx }) => providerInfo(ctx)),
});
