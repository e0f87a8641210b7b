import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import express from 'express';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_TEXTS } from '../../common/payment-texts';
import { BillingError } from '../../domain/billing/errors';
import { trpcExpressHandler } from '../../server/trpc/express-handler';
import { authedProcedure, createContext, publicProcedure, router } from '../../server/trpc/init';
import { trpcResponseMeta } from '../../server/trpc/response-meta';
import { makeSessionCookie, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

/**
 * A billing rule's refusal (BillingError) is answered in one place, the procedures' middleware
 * (server/trpc/init.ts): whatever procedure it is thrown in, the client reads its code and its
 * words, never the generic words of a server failure.
 */
const app = useTestServer();

const REFUSALS = [
  { code: 'NOT_FOUND', answered: 'NOT_FOUND', status: 404, message: 'That tier is gone' },
  { code: 'CONFLICT', answered: 'CONFLICT', status: 409, message: 'You already subscribe to this creator' },
  { code: 'FORBIDDEN', answered: 'FORBIDDEN', status: 403, message: 'You cannot buy your own post' },
  // the provider declined the payment: the caller's 400
  { code: 'PAYMENT_FAILED', answered: 'BAD_REQUEST', status: 400, message: 'Your card was declined' },
] as const;

/** Procedures of the app's own builders that throw a BillingError straight from their resolver, with no service between. */
const refusingRouter = router({
  asQuery: publicProcedure.query(({ ctx }) => {
    throw new BillingError(REFUSALS.find((r) => r.code === ctx.req.header('x-refusal'))!.code, ctx.req.header('x-words')!);
  }),
  asMutation: authedProcedure.mutation(({ ctx }) => {
    throw new BillingError(REFUSALS.find((r) => r.code === ctx.req.header('x-refusal'))!.code, ctx.req.header('x-words')!);
  }),
});

let server: ReturnType<express.Express['listen']>;
let url = '';
const logged: string[] = [];

beforeAll(async () => {
  const web = express();
  web.use(
    '/trpc',
    trpcExpressHandler({
      router: refusingRouter,
      createContext: (opts) => createContext(app.deps, opts),
      maxBatchSize: 20,
      responseMeta: trpcResponseMeta,
      onError({ error }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') logged.push(error.message);
      },
    }),
  );
  server = web.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trpc`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function refusingClient(refusal: string, words: string, cookie = '') {
  const statuses: number[] = [];
  const client = createTRPCClient<typeof refusingRouter>({
    links: [
      httpLink({
        url,
        transformer: superjson,
        headers: { 'x-refusal': refusal, 'x-words': words, ...(cookie && { cookie }) },
        fetch: async (input, init) => {
          const response = await fetch(input as string, init as RequestInit);
          statuses.push(response.status);
          return response;
        },
      }),
    ],
  });
  return { client, statuses };
}

describe('a billing refusal, answered once for every procedure', () => {
  it.each(REFUSALS)('a BillingError $code reaches the client as $answered with its own words', async ({ code, answered, status, message }) => {
    const fan = await makeUser(app.deps.db);
    const { cookie } = await makeSessionCookie(app.deps.db, fan.id);
    const { client, statuses } = refusingClient(code, message, cookie);
    const query = await client.asQuery.query().catch((e: unknown) => e);
    expect(query).toBeInstanceOf(TRPCClientError);
    expect(query).toMatchObject({ message, data: { code: answered, httpStatus: status } });
    const mutation = await client.asMutation.mutate().catch((e: unknown) => e);
    expect(mutation).toMatchObject({ message, data: { code: answered, httpStatus: status } });
    expect(statuses).toEqual([status, status]);
    // a refusal is no server failure: nothing is logged as one
    expect(logged).toEqual([]);
  });

  it("an admin's refund that a billing rule refuses says why (no service translates it)", async () => {
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    const refund = (paymentId: string) => asAdmin.trpc.payments.adminRefund.mutate({ paymentId, amount: '10.00', idempotencyKey: randomUUID() });

    await expectTrpcError(refund(randomUUID()), 'NOT_FOUND', REFUND_TEXTS.paymentNotFound);

    const fan = await makeUser(app.deps.db);
    const { id: failed } = await app.deps.db
      .insertInto('payments')
      .values({ user_id: fan.id, description: 'A charge the card refused', idempotency_key: randomUUID(), amount_cents: 50_00, provider: 'builtin', status: 'failed' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expectTrpcError(refund(failed), 'CONFLICT', REFUND_TEXTS.notRefundable);
  });
});
