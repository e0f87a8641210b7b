import { TRPCError } from '@trpc/server';
import type { AddTestCardInput, TestCardIdInput } from '../../../common/test-cards';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import type { AppDeps } from '../../../core/deps';
import { BillingError } from '../../../domain/billing/errors';
import { addTestCard, makeTestCardDefault, removeTestCard } from '../../../domain/billing/test-cards';

type Deps = Pick<AppDeps, 'db' | 'payments' | 'clock'>;

/**
 * The built-in provider's wallet (issue 47 item 6): test cards exist only while no card provider is
 * configured, so with Stripe these are refused before anything is written.
 */
function builtinOnly(deps: Deps): void {
  if (deps.payments.name !== 'builtin') throw new TRPCError({ code: 'BAD_REQUEST', message: WALLET_TEXTS.builtinOnly });
}

async function asTrpcError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BillingError) throw new TRPCError({ code: error.code === 'PAYMENT_FAILED' ? 'BAD_REQUEST' : error.code, message: error.message });
    throw error;
  }
}

export async function addMyTestCard(deps: Deps, userId: string, input: AddTestCardInput): Promise<{ cardId: string }> {
  builtinOnly(deps);
  return asTrpcError(async () => ({ cardId: await addTestCard(deps.db, userId, input.brand, deps.clock.now()) }));
}

export async function makeMyTestCardDefault(deps: Deps, userId: string, input: TestCardIdInput): Promise<{ cardId: string }> {
  builtinOnly(deps);
  return asTrpcError(async () => {
    await makeTestCardDefault(deps.db, userId, input.cardId);
    return { cardId: input.cardId };
  });
}

export async function removeMyTestCard(deps: Deps, userId: string, input: TestCardIdInput): Promise<{ removed: true }> {
  builtinOnly(deps);
  return asTrpcError(async () => {
    await removeTestCard(deps.db, userId, input.cardId);
    return { removed: true as const };
  });
}
