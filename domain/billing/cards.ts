import type { DB } from '../../core/db/kysely';
import type { SavedCard } from '../../core/payments/provider';

/**
 * A fan's card on file (issue 27 item 6; docs/payments.md): the provider's customer, and the
 * payment method with its brand and last four digits, never the number (the fan types it on the
 * provider's page). One per fan and provider.
 */
export function findSavedCard(db: DB, userId: string, provider: string) {
  return db
    .selectFrom('payment_cards')
    .select(['customer_id', 'payment_method_id', 'brand', 'last4'])
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

/** The fan's customer id at the provider, stored before the card (a setup page needs it). */
export async function keepCustomer(db: DB, userId: string, provider: string, customerId: string): Promise<void> {
  await db
    .insertInto('payment_cards')
    .values({ user_id: userId, provider, customer_id: customerId })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ provider, customer_id: customerId }))
    .execute();
}

/**
 * The card a finished setup saved (its webhook, in the event's transaction): it replaces the one
 * before. Returns the payment method it replaced, if any, for the caller to detach after the commit.
 */
export async function recordSavedCard(trx: DB, userId: string, provider: string, card: SavedCard, at: Date): Promise<string | null> {
  const before = await trx.selectFrom('payment_cards').select('payment_method_id').where('user_id', '=', userId).forUpdate().executeTakeFirst();
  await trx
    .insertInto('payment_cards')
    .values({ user_id: userId, provider, customer_id: card.customerId, payment_method_id: card.paymentMethodId, brand: card.brand, last4: card.last4, updated_at: at })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ provider, customer_id: card.customerId, payment_method_id: card.paymentMethodId, brand: card.brand, last4: card.last4, updated_at: at }),
    )
    .execute();
  const old = before?.payment_method_id ?? null;
  return old && old !== card.paymentMethodId ? old : null;
}

/** The fan removed their card: nothing charges it any more; the customer stays for the next card. */
export async function forgetCard(db: DB, userId: string, paymentMethodId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('payment_cards')
    .set({ payment_method_id: null, brand: null, last4: null, updated_at: at })
    .where('user_id', '=', userId)
    .where('payment_method_id', '=', paymentMethodId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
