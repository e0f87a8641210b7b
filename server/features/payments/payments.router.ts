import { authedProcedure, router } from '../../trpc/init';
import { paymentHistory } from './payments.service';

export const paymentsRouter = router({
  /** The caller's own payments (never anyone else's), newest first, at most 50. */
  history: authedProcedure.query(({ ctx }) => paymentHistory(ctx, ctx.user.id)),
});
