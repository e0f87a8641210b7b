import { TRPCClientError, httpBatchLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { createTRPCReact, type CreateTRPCReact } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import superjson from 'superjson';
import { SOCKET_ID_HEADER } from '../../common/socket-events';
import type { AppRouter } from '../../server/trpc/router';
import { notify } from './toast';

/** React hooks for every procedure: `trpc.auth.me.useQuery()`, `trpc.useUtils()`. */
export const trpc: CreateTRPCReact<AppRouter, unknown> = createTRPCReact<AppRouter>();

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type CurrentUser = NonNullable<RouterOutputs['auth']['me']>;

/** The tab's live socket id, if any (lib/realtime/connection.ts sets it: that module imports this one, not the reverse). */
let liveSocketId: () => string | undefined = () => undefined;
export function setLiveSocketId(read: () => string | undefined): void {
  liveSocketId = read;
}

/**
 * Every write has a budget on the server; a call over it (429) shows the server's words as a toast,
 * whichever screen made it (hooks and `utils.client` calls alike).
 */
const rateLimitToastLink: TRPCLink<AppRouter> = () => ({ next, op }) =>
  observable((observer) =>
    next(op).subscribe({
      next: (value) => observer.next(value),
      error: (error) => {
        if (error.data?.code === 'TOO_MANY_REQUESTS') notify.rateLimited(error.message);
        observer.error(error);
      },
      complete: () => observer.complete(),
    }),
  );

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      rateLimitToastLink,
      httpBatchLink({
        url: '/trpc',
        transformer: superjson,
        // The server leaves this tab's socket out of the live events its own changes cause.
        headers: () => {
          const socketId = liveSocketId();
          return socketId ? { [SOCKET_ID_HEADER]: socketId } : {};
        },
        // The session cookie is same-origin; say so explicitly for proxies and dev servers.
        fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
}

export type TrpcClientError = TRPCClientError<AppRouter>;

/** The validation block the server's error formatter adds to zod and field errors. */
export interface ServerValidation {
  title: string;
  messages: string[];
  fieldErrors: Record<string, string[] | undefined>;
}

export function isTrpcError(error: unknown): error is TrpcClientError {
  return error instanceof TRPCClientError;
}

/** The tRPC error code ('UNAUTHORIZED', 'CONFLICT', ...) or null for network and unknown errors. */
export function errorCode(error: unknown): string | null {
  return isTrpcError(error) ? (error.data?.code ?? null) : null;
}

export function httpStatus(error: unknown): number | null {
  return isTrpcError(error) ? (error.data?.httpStatus ?? null) : null;
}

/** True when the server answered (as opposed to the request failing on the way). */
export function isServerError(error: unknown): error is TrpcClientError {
  return isTrpcError(error) && error.data != null;
}

export function serverValidation(error: unknown): ServerValidation | null {
  if (!isServerError(error)) return null;
  const validation = (error.data as { validation?: ServerValidation | null }).validation;
  return validation ?? null;
}

export function retryAfterSeconds(error: unknown): number | null {
  if (!isServerError(error)) return null;
  return (error.data as { retryAfterSeconds?: number | null }).retryAfterSeconds ?? null;
}

/** A 4xx answer: the same request would fail again, so it is not retried. */
export function isClientError(error: unknown): boolean {
  const status = httpStatus(error);
  return status != null && status >= 400 && status < 500;
}
