import type { OneOffOutcome } from './one-off';

/**
 * A one-off purchase's answer when it is not written yet (docs/payments.md, "Cards and one-off
 * Checkout"): 'redirect' — the browser goes to the provider's page (Checkout, or the bank's 3-D
 * Secure step) and the webhook writes the purchase; 'processing' — the bank answers later, and the
 * webhook writes it then. Each procedure answers this or its own 'paid' result.
 */
export type PaymentElsewhereDto = { kind: 'redirect'; url: string } | { kind: 'processing' };

export function paymentElsewhere(outcome: Exclude<OneOffOutcome<unknown>, { kind: 'paid' }>): PaymentElsewhereDto {
  return outcome.kind === 'redirect' ? { kind: 'redirect', url: outcome.url } : { kind: 'processing' };
}
