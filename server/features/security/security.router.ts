import { ChangePasswordInput, ConfirmTwoFactorInput, DisableTwoFactorInput, RevokeSessionInput } from '../../../common/security';
import { clearSessionCookie } from '../../auth/cookies';
import { authedProcedure, router } from '../../trpc/init';
import * as security from './security.service';

/**
 * /settings/security: two-factor, password, sessions. Signing out the others or all sessions is
 * `auth.signOut` with its scopes (one implementation of each scope).
 */
export const securityRouter = router({
  overview: authedProcedure.query(({ ctx }) => security.overview(ctx, ctx.user.id)),

  sessions: authedProcedure.query(({ ctx }) => security.sessions(ctx, { userId: ctx.user.id, sessionId: ctx.session.id })),

  revokeSession: authedProcedure.input(RevokeSessionInput).mutation(async ({ ctx, input }) => {
    const result = await security.revokeSession(ctx, { userId: ctx.user.id, sessionId: ctx.session.id }, input.sessionId);
    if (result.current) clearSessionCookie(ctx.res, ctx.config.cookieSecure);
    return result;
  }),

  changePassword: authedProcedure
    .input(ChangePasswordInput)
    .mutation(({ ctx, input }) => security.changePassword(ctx, callerOf(ctx), input)),

  startTwoFactor: authedProcedure.mutation(({ ctx }) => security.startTwoFactor(ctx, { userId: ctx.user.id, email: ctx.user.email })),

  confirmTwoFactor: authedProcedure
    .input(ConfirmTwoFactorInput)
    .mutation(({ ctx, input }) => security.confirmTwoFactor(ctx, callerOf(ctx), input.code)),

  disableTwoFactor: authedProcedure
    .input(DisableTwoFactorInput)
    .mutation(({ ctx, input }) => security.disableTwoFactor(ctx, callerOf(ctx), input.code)),
});

function callerOf(ctx: { user: { id: string; email: string }; session: { id: string }; req: { headers: Record<string, unknown> } }) {
  const ua = ctx.req.headers['user-agent'];
  return { userId: ctx.user.id, sessionId: ctx.session.id, email: ctx.user.email, userAgent: typeof ua === 'string' ? ua : null };
}
