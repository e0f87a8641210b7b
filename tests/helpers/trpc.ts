import { TRPCClientError } from '@trpc/client';
import { expect } from 'vitest';
import { makeSessionCookie } from './factories';
import type { TestClient, TestServer } from './test-server';

/** A client of `app` signed in as `userId` (a session row and its cookie in the jar). */
export async function clientAs(app: TestServer, userId: string): Promise<TestClient> {
  const client = app.client();
  const { token } = await makeSessionCookie(app.deps.db, userId);
  client.cookies().set('session', token);
  return client;
}

/** Awaits a tRPC call that must fail with this code (and message, when given). */
export async function expectTrpcError(call: Promise<unknown>, code: string, message?: string): Promise<TRPCClientError<never>> {
  const error = await call.then(
    () => {
      throw new Error(`expected ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const trpcError = error as TRPCClientError<never>;
  expect((trpcError.data as { code?: string } | undefined)?.code).toBe(code);
  if (message !== undefined) expect(trpcError.message).toBe(message);
  return trpcError;
}
