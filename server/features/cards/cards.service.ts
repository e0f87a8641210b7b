import { TRPCError } from '@trpc/server';
import { CARD_TEXTS } from '../../../common/card-texts';
import type { AppDeps } from '../../../core/deps';
import type { TestCardDto } from '../../../common/test-cards';
import { findSavedCard, forgetCard, keepCustomer } from '../../../domain/billing/cards';
import { listTestCards } from '../../../domain/billing/test-cards';

type Deps = Pick<AppDeps, 'db' | 'config' | 'log' | 'payments' | 'clock'>;

export interface SavedCardDto {
  provider: 'builtin' | 'stripe';
  /** the card on file (Stripe only), as the fan knows it: never its number */
  card: { brand: string; last4: string } | null;
  /** the built-in provider's wallet (issue 47 item 6): test cards, the default first; empty with Stripe */
  testCards: TestCardDto[];
}

/** Settings > Payment's card: the caller's own, whatever they ask (no id is taken). */
export async function myCard(deps: Deps, userId: string): Promise<SavedCardDto> {
  const provider = deps.payments.name;
  // cards are kept at a provider with hosted pages only (addCard); the built-in provider's are test cards
  if (deps.payments.flow !== 'checkout') return { provider, card: null, testCards: await listTestCards(deps.db, userId) };
  const row = await findSavedCard(deps.db, userId, provider);
  return { provider, card: row?.payment_method_id && row.brand && row.last4 ? { brand: row.brand, last4: row.last4 } : null, testCards: [] };
}

/**
 * Add a card: Stripe's hosted page (Checkout in setup mode) on the fan's customer, made once. The
 * card is stored when its webhook arrives (checkout.session.completed, domain/billing/provider-events.ts).
 */
export async function addCard(deps: Deps, user: { id: string; email: string }): Promise<{ url: string }> {
  if (deps.payments.flow !== 'checkout') throw new TRPCError({ code: 'BAD_REQUEST', message: CARD_TEXTS.stripeOnly });
  try {
    const known = await findSavedCard(deps.db, user.id, deps.payments.name);
    const customerId = known?.customer_id ?? (await deps.payments.createCustomer({ userId: user.id, email: user.email }));
    if (!known) await keepCustomer(deps.db, user.id, deps.payments.name, customerId);
    const back = `${deps.config.appUrl}/settings/account/payment`;
    return await deps.payments.createCardSetup({ userId: user.id, customerId, successUrl: `${back}?card=added`, cancelUrl: `${back}?card=cancelled` });
  } catch (error) {
    deps.log.error({ err: error }, 'card setup failed');
    throw new TRPCError({ code: 'BAD_GATEWAY', message: CARD_TEXTS.failed, cause: error instanceof Error ? error : undefined });
  }
}

/**
 * Remove the card: detached at Stripe first (so it can never be charged again), then forgotten
 * here; a Stripe that cannot be reached leaves it in place and says so, and a repeat is harmless.
 */
export async function removeCard(deps: Deps, userId: string): Promise<{ removed: true }> {
  const row = deps.payments.flow === 'checkout' ? await findSavedCard(deps.db, userId, deps.payments.name) : undefined;
  if (!row?.payment_method_id) throw new TRPCError({ code: 'NOT_FOUND', message: CARD_TEXTS.notFound });
  try {
    await deps.payments.removeCard(row.payment_method_id);
  } catch (error) {
    deps.log.error({ err: error }, 'card removal failed');
    throw new TRPCError({ code: 'BAD_GATEWAY', message: CARD_TEXTS.failed, cause: error instanceof Error ? error : undefined });
  }
  await forgetCard(deps.db, userId, row.payment_method_id, deps.clock.now());
  return { removed: true };
}
