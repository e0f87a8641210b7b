import type { TRPCError } from '@trpc/server';
import { sessionTokenOf } from '../auth/cookies';
import { RetryAfter } from './errors';
import type { Context } from './init';

/**
 * Headers of every tRPC answer. What it holds depends on the session cookie (`Vary: Cookie`); a
 * signed-in answer, one that sets a cookie, or one made for a request that carried a session cookie
 * (even one that resolved to none: its answer clears it) belongs to that browser alone and is never
 * stored by the browser or a shared cache (a proxy or CDN would otherwise hand one user's feed,
 * messages or address to the next). A rate-limit refusal says when to try again.
 */
export function trpcResponseMeta({ ctx, errors }: { ctx?: Context; errors: TRPCError[] }): { headers: Headers } {
  const headers = new Headers({ Vary: 'Cookie' });
  if (ctx?.user || ctx?.res.hasHeader('set-cookie') || (ctx && sessionTokenOf(ctx.req.headers.cookie) !== null)) headers.set('Cache-Control', 'private, no-store');
  const retry = errors.map((e) => e.cause).find((c): c is RetryAfter => c instanceof RetryAfter);
  if (retry) headers.set('Retry-After', String(retry.seconds));
  return { headers };
}
