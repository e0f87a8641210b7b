import { PurchasesInput } from '../../../common/purchase-schemas';
import { authedProcedure, router } from '../../trpc/init';
import { myPurchases } from './purchases.service';

export const purchasesRouter = router({
  /** The signed-in fan's own purchases (profile > Purchased), keyset-paged; the input names no user. */
  mine: authedProcedure.input(PurchasesInput).query(({ ctx, input }) => myPurchases(ctx, ctx.user.id, input)),
});
