import { SendTipInput } from '../../../common/tip-schemas';
import { BILLING_TEXTS } from '../../../common/texts';
import { authedProcedureSaying, router } from '../../trpc/init';
import { sendTip } from './tips.service';

export const tipsRouter = router({
  /** One confirmed charge per idempotency key; the creator hears `tip:received` (docs/payments.md, Tips). */
  send: authedProcedureSaying(BILLING_TEXTS.signInToSubscribe).input(SendTipInput).mutation(({ ctx, input }) => sendTip(ctx, ctx.user.id, input)),
});
