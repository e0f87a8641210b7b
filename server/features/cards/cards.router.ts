import { authedProcedure, router } from '../../trpc/init';
import { addCard, myCard, removeCard } from './cards.service';

/** A fan's card on file for tips and unlocks (issue 27 item 6; docs/payments.md, "Cards and one-off Checkout"). */
export const cardsRouter = router({
  /** The caller's card (brand and last four digits), and which provider this server uses. */
  mine: authedProcedure.query(({ ctx }) => myCard(ctx, ctx.user.id)),
  /** Stripe's hosted page to enter a card; the webhook stores it. */
  add: authedProcedure.mutation(({ ctx }) => addCard(ctx, ctx.user)),
  /** The caller's card is detached at Stripe and forgotten here. */
  remove: authedProcedure.mutation(({ ctx }) => removeCard(ctx, ctx.user.id)),
});
