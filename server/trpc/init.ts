import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { CreateExpressContextOptions } from '@trpc/server/adapters/express';
import superjson from 'superjson';
import { leanOutput } from './lean-output';
import { ZodError } from 'zod';
import { validationMessages } from '../../common/auth-schemas';
import { unknownIdAnswer } from '../../common/ids';
import { SOCKET_ID_HEADER } from '../../common/socket-events';
import { SERVER_TEXTS, UPLOAD_TEXTS, VALIDATION } from '../../common/texts';
import { resolveSession } from '../auth/resolve-session';
import { PROCEDURE_BUDGETS, spendWriteBudget } from '../auth/write-budgets';
import type { SessionInfo, SessionUser } from '../../core/sessions/resolved-session';
import type { AppDeps } from '../../core/deps';
import { socketIdFromHeader, type EmitOrigin } from '../../core/realtime/realtime';
import { BillingError } from '../../domain/billing/errors';
import { badDataMessage, billingRefusal, FieldError, isHiddenMessage, isUnavailable, RetryAfter, tooManyRequests } from './errors';

export interface Context extends AppDeps, EmitOrigin {
  req: CreateExpressContextOptions['req'];
  res: CreateExpressContextOptions['res'];
  session: SessionInfo | null;
  user: SessionUser | null;
  /** the client address used by rate limits (honours TRUST_PROXY) */
  clientIp: string;
}

export async function createContext(deps: AppDeps, { req, res }: Pick<CreateExpressContextOptions, 'req' | 'res'>): Promise<Context> {
  return contextOf(deps, { req, res }, await resolveSession(deps, req.headers.cookie, res));
}

/** A request's context for a session already resolved (null: a visitor's, as link preview cards ask). */
export function contextOf(
  deps: AppDeps,
  { req, res }: Pick<CreateExpressContextOptions, 'req' | 'res'>,
  auth: { session: SessionInfo; user: SessionUser } | null,
): Context {
  // Every field named, not `{ ...deps, req, res }`: on Node 20's V8 an object made by a spread
  // and then given more fields is kept by minor collections with all it refers to, so a
  // request's context, request and response were promoted and filled the old generation
  // (docs/performance.md, "Spread objects outlive their request").
  return {
    config: deps.config,
    db: deps.db,
    redis: deps.redis,
    queues: deps.queues,
    log: deps.log,
    realtime: deps.realtime,
    storage: deps.storage,
    payments: deps.payments,
    clock: deps.clock,
    sessionCache: deps.sessionCache,
    req,
    res,
    session: auth?.session ?? null,
    user: auth?.user ?? null,
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    socketId: socketIdFromHeader(req.headers[SOCKET_ID_HEADER]),
  };
}

const t = initTRPC.context<Context>().create({
  // answers written in superjson's format by a leaner walk (lean-output.ts); requests read by superjson
  transformer: { input: superjson, output: leanOutput },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const zod = cause instanceof ZodError ? cause : null;
    // Data the database refused (a character or length a schema let through) is the caller's
    // fault: 400 with clear words. Any other failure is logged (app.ts onError) and answered with
    // generic words: neither the database's text nor a stack ever reaches the client.
    const badData = badDataMessage(error);
    // PostgreSQL or Redis away for a moment (core/dependency-errors.ts): 503, try again
    const unavailable = !zod && !badData && isUnavailable(error);
    const message = zod
      ? validationMessages(zod).join('\n')
      : unavailable
        ? SERVER_TEXTS.unavailable
        : (badData ?? (isHiddenMessage(error) ? SERVER_TEXTS.unexpected : shape.message));
    return {
      ...shape,
      ...(badData && { code: TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST }),
      ...(unavailable && { code: TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE }),
      // Zod failures read as the spec's 'Validation Error' toast: its title and every message.
      message,
      data: {
        ...shape.data,
        ...(badData && { code: 'BAD_REQUEST' as const, httpStatus: 400 }),
        ...(unavailable && { code: 'SERVICE_UNAVAILABLE' as const, httpStatus: 503 }),
        stack: undefined,
        validation: zod
          ? {
              title: VALIDATION.validationErrorTitle,
              messages: validationMessages(zod),
              fieldErrors: zod.flatten().fieldErrors as Record<string, string[] | undefined>,
            }
          : cause instanceof FieldError
            ? { title: VALIDATION.validationErrorTitle, messages: [cause.message], fieldErrors: { [cause.field]: [cause.message] } }
            : badData
              ? { title: VALIDATION.validationErrorTitle, messages: [badData], fieldErrors: {} }
              : null,
        retryAfterSeconds: cause instanceof RetryAfter ? cause.seconds : null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every write has a budget (server/auth/write-budgets.ts): each mutation counts against its
 * action's budget for the caller and the address before anything else runs. Over it: 429 with
 * the words of the action (or 'Too many requests. Please wait a moment and try again.') and
 * Retry-After (response-meta.ts); counters out of reach: 503.
 */
async function spendBudget(ctx: Context, path: string, type: string): Promise<void> {
  if (type !== 'mutation') return;
  const verdict = await spendWriteBudget(ctx, path, PROCEDURE_BUDGETS[path] ?? 'other', { userId: ctx.user?.id ?? null, ip: ctx.clientIp });
  if (verdict.outcome === 'unavailable') throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: SERVER_TEXTS.unavailable, cause: verdict.error });
  if (verdict.outcome === 'over') throw tooManyRequests(verdict.message, verdict.retryAfterSeconds);
}

/**
 * Refusals of the lower layers, answered in the client's terms here once, so no service
 * translates them:
 *  - the one policy for ids (common/ids.ts): an input refused because an id is not a uuid is
 *    answered like an unknown id ('Post not found', 404), not as a 'Validation Error', so no
 *    service checks an id's shape again;
 *  - a billing rule's BillingError that reached the procedure's end (tRPC wrapped it as a
 *    500): its code and words (billingRefusal).
 */
function answerRefusals<R extends { ok: boolean }>(result: R): R {
  if (result.ok) return result;
  const error = (result as R & { error: TRPCError }).error;
  const cause = error.cause;
  if (cause instanceof BillingError && error.code === 'INTERNAL_SERVER_ERROR') throw billingRefusal(cause);
  const answer = cause instanceof ZodError && unknownIdAnswer(cause);
  if (answer) throw new TRPCError(answer);
  return result;
}

// The budget, the refusals' answers and the session check are one middleware, not three: tRPC copies
// its call's options (and the context, when a middleware extends it) at every level it goes
// through, which cost a twentieth of the app's CPU on a signed-in list (docs/performance.md).

/**
 * The procedures anyone may call. Every procedure spends its write budget first, here or in
 * authedProcedureSaying (which the creator and admin ones build on), so no write escapes it.
 */
export const publicProcedure = t.procedure.use(async ({ ctx, path, type, next }) => {
  await spendBudget(ctx, path, type);
  return answerRefusals(await next());
});

/** A signed-in procedure whose refusal (UNAUTHORIZED) carries the spec's words for that action. */
export function authedProcedureSaying(message: string) {
  return t.procedure.use(async ({ ctx, path, type, next }) => {
    await spendBudget(ctx, path, type);
    if (!ctx.user || !ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message });
    return answerRefusals(await next({ ctx: { user: ctx.user, session: ctx.session } }));
  });
}

export const authedProcedure = authedProcedureSaying('Not authenticated');

/**
 * A procedure only creators may call (the role is read with the session on every request, so a
 * user who just became a creator passes at once). Refusals carry the words of the action:
 * UNAUTHORIZED `signInRequired` without a session, FORBIDDEN `creatorsOnly` for anyone else.
 */
export function creatorProcedureSaying(texts: { signInRequired: string; creatorsOnly: string }) {
  return authedProcedureSaying(texts.signInRequired).use(({ ctx, next }) => {
    if (!ctx.user.isCreator) throw new TRPCError({ code: 'FORBIDDEN', message: texts.creatorsOnly });
    return next();
  });
}

/** Creator actions: the upload screen's words ('Please sign in to upload content', 'Only creators can upload content'). */
export const creatorProcedure = creatorProcedureSaying(UPLOAD_TEXTS);

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'admin') throw new TRPCError({ code: 'FORBIDDEN', message: 'Admins only' });
  return next();
});
