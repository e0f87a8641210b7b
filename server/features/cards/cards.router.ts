import { AddTestCardInput, TestCardIdInput } from '../../../common/test-cards';
import { authedProcedure, router } from '../../trpc/init';
import { addCard, myCard, removeCard } from './cards.service';
import { addMyTestCard, makeMyTestCardDefault, removeMyTestCard } from './test-cards.service';

/** A fan's card on file for tips and unlocks (issue 27 item 6; docs/payments.md, "Cards and one-off Checkout"). */
export const cardsRouter = router({
  /** The caller's card (brand and last four digits) or, with the built-in provider, their test cards; and which provider this server uses. */
  mine: authedProcedure.query(({ ctx }) => myCard(ctx, ctx.user.id)),
  /** Stripe's hosted page to enter a card; the webhook stores it. */
  add: authedProcedure.mutation(({ ctx }) => addCard(ctx, ctx.user)),
  /** The caller's card is detached at Stripe and forgotten here. */
  remove: authedProcedure.mutation(({ ctx }) => removeCard(ctx, ctx.user.id)),
  /** The built-in provider's wallet (issue 47 item 6): a test card, never charged; the first is the default. */
  addTest: authedProcedure.input(AddTestCardInput).mutation(({ ctx, input }) => addMyTestCard(ctx, ctx.user.id, input)),
  /** One of the caller's test cards becomes their default. */
  makeDefault: authedProcedure.input(TestCardIdInput).mutation(({ ctx, input }) => makeMyTestCardDefault(ctx, ctx.user.id, input)),
  /** One of the caller's test cards goes; a removed default hands over to the newest card left. */
  removeTest: authedProcedure.input(TestCardIdInput).mutation(({ ctx, input }) => removeMyTestCard(ctx, ctx.user.id, input)),
});
