import { ConfirmIdentityInput, SetAccountHiddenInput } from '../../../common/security';
import { clearSessionCookie } from '../../auth/cookies';
import { authedProcedure, router } from '../../trpc/init';
import * as account from './account.service';

/** /settings/account/management and "Download my data" (issue 13, part B). */
export const accountRouter = router({
  management: authedProcedure.query(({ ctx }) => account.management(ctx, ctx.user.id)),

  setHidden: authedProcedure.input(SetAccountHiddenInput).mutation(({ ctx, input }) => account.setHidden(ctx, ctx.user.id, input.hidden)),

  deleteAllData: authedProcedure.input(ConfirmIdentityInput).mutation(({ ctx, input }) => account.deleteAllData(ctx, ctx.user.id, input)),

  deleteAccount: authedProcedure.input(ConfirmIdentityInput).mutation(async ({ ctx, input }) => {
    const result = await account.deleteAccount(ctx, ctx.user.id, input);
    clearSessionCookie(ctx.res, ctx.config.cookieSecure);
    return result;
  }),

  exports: authedProcedure.query(({ ctx }) => account.listExports(ctx, ctx.user.id)),

  requestExport: authedProcedure.mutation(({ ctx }) => account.requestExport(ctx, ctx.user.id)),
});
