import { EarningsChartInput, EarningsSummaryInput, PayoutsInput, StatementInput, WithdrawInput } from '../../../common/earnings';
import { BILLING_TEXTS } from '../../../common/texts';
import { adminProcedure, authedProcedure, creatorProcedureSaying, router } from '../../trpc/init';
import {
  adminEarnings,
  earningsChart,
  earningsSummary,
  ledgerOwner,
  monthlyStatement,
  myPayouts,
  payoutAccount,
  setUpPayouts,
  withdraw,
} from './earnings.service';

const creatorOnly = creatorProcedureSaying({ signInRequired: BILLING_TEXTS.tierSignIn, creatorsOnly: BILLING_TEXTS.tierCreatorsOnly });

/**
 * A creator's earnings (issue 26): their own ledger only (the caller's id; an admin may name a
 * creator), payouts, Withdraw and the payout account.
 */
export const earningsRouter = router({
  // creators their own; admins any creator's (ledgerOwner decides)
  summary: authedProcedure.input(EarningsSummaryInput).query(({ ctx, input }) => earningsSummary(ctx, ledgerOwner(ctx.user, input?.creatorId))),
  chart: creatorOnly.input(EarningsChartInput).query(({ ctx, input }) => earningsChart(ctx, ctx.user.id, input)),
  payouts: creatorOnly.input(PayoutsInput).query(({ ctx, input }) => myPayouts(ctx, ctx.user.id, input.cursor ?? null)),
  statement: creatorOnly.input(StatementInput).query(({ ctx, input }) => monthlyStatement(ctx, ctx.user.id, input)),
  withdraw: creatorOnly.input(WithdrawInput).mutation(({ ctx, input }) => withdraw(ctx, ctx.user.id, input)),
  payoutAccount: authedProcedure.query(({ ctx }) => payoutAccount(ctx, ctx.user.id)),
  setUpPayouts: creatorOnly.mutation(({ ctx }) => setUpPayouts(ctx, ctx.user)),
  admin: adminProcedure.query(({ ctx }) => adminEarnings(ctx)),
});
