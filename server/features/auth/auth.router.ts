import {
  ConfirmEmailInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  SignInInput,
  SignOutInput,
  SignUpInput,
} from '../../../common/auth-schemas';
import type { UserDto } from '../../../common/auth-dtos';
import { VerifyTwoFactorSignInInput, type TwoFactorRequired } from '../../../common/security';
import { clearSessionCookie, setSessionCookie } from '../../auth/cookies';
import { challengeTokenOf, clearChallengeCookie, setChallengeCookie } from '../../auth/two-factor';
import { authedProcedure, publicProcedure, router } from '../../trpc/init';
import * as auth from './auth.service';

export const authRouter = router({
  /** The signed-in user, or null. */
  me: publicProcedure.query(({ ctx }): UserDto | null => (ctx.user ? auth.toUserDto(ctx.user) : null)),

  /** Creates the account and mails a confirmation link; does not sign in. */
  signUp: publicProcedure
    .input(SignUpInput)
    .mutation(({ ctx, input }) => auth.signUp(ctx, input, { ip: ctx.clientIp })),

  confirmEmail: publicProcedure
    .input(ConfirmEmailInput)
    .mutation(({ ctx, input }) => auth.confirmEmail(ctx, input.token)),

  /** The user, or `{ twoFactorRequired }` when the account asks for a code next (verifyTwoFactor). */
  signIn: publicProcedure.input(SignInInput).mutation(async ({ ctx, input }): Promise<UserDto | TwoFactorRequired> => {
    const result = await auth.signIn(ctx, input, {
      ip: ctx.clientIp,
      userAgent: ctx.req.headers['user-agent'] ?? null,
      currentSessionId: ctx.session?.id ?? null,
    });
    if ('challengeToken' in result) {
      setChallengeCookie(ctx.res, result.challengeToken, ctx.config.cookieSecure);
      return { twoFactorRequired: true };
    }
    setSessionCookie(ctx.res, result.token, result.session.expiresAt, ctx.config.cookieSecure);
    return result.user;
  }),

  /** The code after the password; the challenge travels in its HttpOnly cookie. */
  verifyTwoFactor: publicProcedure.input(VerifyTwoFactorSignInInput).mutation(async ({ ctx, input }) => {
    const result = await auth.verifyTwoFactorSignIn(ctx, challengeTokenOf(ctx.req.headers.cookie), input.code, {
      ip: ctx.clientIp,
      userAgent: ctx.req.headers['user-agent'] ?? null,
      currentSessionId: ctx.session?.id ?? null,
    });
    clearChallengeCookie(ctx.res, ctx.config.cookieSecure);
    setSessionCookie(ctx.res, result.token, result.session.expiresAt, ctx.config.cookieSecure);
    return result.user;
  }),

  signOut: authedProcedure.input(SignOutInput).mutation(async ({ ctx, input }) => {
    const result = await auth.signOut(ctx, input.scope, { sessionId: ctx.session.id, userId: ctx.user.id });
    if (result.clearCookie) clearSessionCookie(ctx.res, ctx.config.cookieSecure);
    return { ok: true as const, sessionsEnded: result.sessionsEnded };
  }),

  requestPasswordReset: publicProcedure
    .input(RequestPasswordResetInput)
    .mutation(({ ctx, input }) => auth.requestPasswordReset(ctx, input.email, { ip: ctx.clientIp })),

  resetPassword: publicProcedure.input(ResetPasswordInput).mutation(async ({ ctx, input }) => {
    const { userId } = await auth.resetPassword(ctx, input.token, input.password, { ip: ctx.clientIp });
    // Every session of the account ended, this browser's included if it had one.
    if (ctx.session?.userId === userId) clearSessionCookie(ctx.res, ctx.config.cookieSecure);
    return { ok: true as const };
  }),
});
