import { ClaimTrialInput, CreateOfferInput, CreateTrialLinkInput, OfferIdInput, TrialCodeInput, TrialLinkIdInput, TrialListInput } from '../../../common/trial-schemas';
import { TRIAL_TEXTS } from '../../../common/trial-texts';
import { BILLING_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, creatorProcedureSaying, publicProcedure, router } from '../../trpc/init';
import { createOffer, disableOffer, listOffers } from './offers.service';
import { claimTrial, createTrialLink, disableTrial, listTrialLinks, viewTrial } from './trials.service';

/** A creator's own links only: every id is checked against the caller. */
const trialLinkProcedure = creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly });

/** Free trial links (issue 27 item 5; docs/payments.md, Free trials). */
export const trialsRouter = router({
  /** The caller's links, newest first, with their claim counts. */
  listMine: trialLinkProcedure.input(TrialListInput).query(({ ctx, input }) => listTrialLinks(ctx, ctx.user.id, input)),
  create: trialLinkProcedure.input(CreateTrialLinkInput).mutation(({ ctx, input }) => createTrialLink(ctx, ctx.user.id, input)),
  disable: trialLinkProcedure.input(TrialLinkIdInput).mutation(({ ctx, input }) => disableTrial(ctx, ctx.user.id, input.id)),
  /** /trial/{code}: what the link gives, and whether this viewer can claim it. */
  view: publicProcedure.input(TrialCodeInput).query(({ ctx, input }) => viewTrial(ctx, ctx.user?.id ?? null, input.code)),
  /** Premium access for the link's days with no charge; converts to paid at its end unless cancelled. */
  claim: authedProcedureSaying(TRIAL_TEXTS.signInToClaim).input(ClaimTrialInput).mutation(({ ctx, input }) => claimTrial(ctx, ctx.user.id, input)),
});

/** Offers: N% off the first period for new fans or expired subscribers (issue 27 item 5). */
export const offersRouter = router({
  listMine: trialLinkProcedure.query(({ ctx }) => listOffers(ctx, ctx.user.id)),
  create: trialLinkProcedure.input(CreateOfferInput).mutation(({ ctx, input }) => createOffer(ctx, ctx.user.id, input)),
  disable: trialLinkProcedure.input(OfferIdInput).mutation(({ ctx, input }) => disableOffer(ctx, ctx.user.id, input.id)),
});
