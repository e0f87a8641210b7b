import { TRPCError } from '@trpc/server';
import type { AddTestCardInput, TestCardIdInput } from '../../../common/test-cards';
import { WALLET_TEXTS } from '../../../common/wallet-texts';
import type { AppDeps } from '../../../core/deps';
import { addTestCard, makeTestCardDefault, removeTestCard } from '../../../domain/billing/test-cards';

type Deps = Pick<AppDeps, 'db' | 'payments' | 'clock'>;

/**
 * The built-in provider's wallet (issue 47 item 6): test cards exist only while no card provider is
 * configured, so with Stripe these are refused before anything is written.
 */
function builtinOnly(deps: Deps): void {
  if (!deps.payments.isTest) throw new TRPCError({ code: 'BAD_REQUEST', message: WALLET_TEXTS.builtinOnly });
}

export async function addMyTestCard(deps: Deps, userId: string, input: AddTestCardInput): Promise<{ cardId: string }> {
  builtinOnly(deps);
  return { cardId: await addTestCard(deps.db, userId, input.brand, deps.clock.now()) };
}

export async function makeMyTestCardDefault(deps: Deps, userId: string, input: TestCardIdInput): Promise<{ cardId: string }> {
  builtinOnly(deps);
  await makeTestCardDefault(deps.db, userId, input.cardId);
  return { cardId: input.cardId };
}

export async function removeMyTestCard(deps: Deps, userId: string, input: TestCardIdInput): Promise<{ removed: true }> {
  builtinOnly(deps);
  await removeTestCard(deps.db, userId, input.cardId);
  return { removed: true as const };
}
