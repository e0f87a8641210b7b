import { ReceiptInput } from '../../../common/receipts';
import { AdminPaymentSearchInput, AdminRefundInput } from '../../../common/refund-schemas';
import { adminProcedure, authedProcedure, router } from '../../trpc/init';
import { myReceipt, paymentHistory, refundPayment, searchPayments } from './payments.service';

export const paymentsRouter = router({
  /** The caller's own payments (never anyone else's), newest first, at most 50: charges and their refund and dispute rows. */
  history: authedProcedure.query(({ ctx }) => paymentHistory(ctx, ctx.user.id)),
  /** The receipt of one of the caller's purchases (issue 47 item 6); another user's payment is not found. */
  receipt: authedProcedure.input(ReceiptInput).query(({ ctx, input }) => myReceipt(ctx, ctx.user.id, input.paymentId)),
  /** Admins: charges by fan username or e-mail, creator username, payment id or provider reference. */
  adminSearch: adminProcedure.input(AdminPaymentSearchInput).query(({ ctx, input }) => searchPayments(ctx, input)),
  /** Admins: refund a charge in full or in part, through the provider (a retried job). */
  adminRefund: adminProcedure.input(AdminRefundInput).mutation(({ ctx, input }) => refundPayment(ctx, ctx.user.id, input)),
});
