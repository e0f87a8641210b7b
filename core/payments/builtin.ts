import { createHash } from 'node:crypto';
import { PROVIDER_CAPABILITIES } from './capabilities';
import type { PaymentProvider } from './provider';
import { WebhookSignatureError } from './provider';

/**
 * The default provider: as the spec says, no card provider is called. A charge always succeeds and
 * is recorded in the ledger with a reference derived from its idempotency key (the same request
 * makes the same reference). The UI labels it 'Test payments: no card is charged'.
 */
const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 24);

export const builtinProvider: PaymentProvider = {
  name: 'builtin',
  flow: 'direct',
  ...PROVIDER_CAPABILITIES.builtin,
  async charge(request) {
    const ref = `builtin_${createHash('sha256').update(`${request.userId}:${request.idempotencyKey}`).digest('hex').slice(0, 24)}`;
    return { ok: true, ref };
  },
  async createCheckout() {
    throw new Error('The built-in provider has no checkout page');
  },
  async setCancelAtPeriodEnd() {},
  // built-in subscriptions live only in our tables: nothing at a provider to stop or pay back
  async cancelNow() {},
  async subscriptionEnded() {
    return false;
  },
  // the money never left: the ledger's reversal row is the whole refund
  async refund() {
    return { ref: null };
  },
  async chargeInfo(charge) {
    return { refs: [charge.chargeId, charge.paymentIntent, charge.invoice].filter((r): r is string => Boolean(r)), refunds: [] };
  },
  // a clearly labelled test account (the Earnings screen says so): no bank details, no money moves
  async createPayoutAccount(request) {
    return { accountId: `test_acct_${digest(request.userId)}`, state: { status: 'enabled', identityVerified: false } };
  },
  async payoutOnboardingUrl() {
    return null;
  },
  async payoutAccountState() {
    return { status: 'enabled', identityVerified: false };
  },
  async transfer(request) {
    return { ok: true, ref: `test_tr_${digest(request.idempotencyKey)}` };
  },
  // every charge succeeds at once (flow 'direct'): no hosted page, no card on file
  async createOneOffCheckout() {
    throw new Error('The built-in provider has no checkout page');
  },
  async createCustomer() {
    throw new Error('The built-in provider keeps no cards');
  },
  async createCardSetup() {
    throw new Error('The built-in provider keeps no cards');
  },
  async cardOfSetup() {
    throw new Error('The built-in provider keeps no cards');
  },
  async chargeCard() {
    throw new Error('The built-in provider keeps no cards');
  },
  async removeCard() {},
  // no records beside ours: the reconciliation compares the ledger with our payments and payouts rows
  async balanceTotals() {
    return null;
  },
  verifyWebhook() {
    throw new WebhookSignatureError('The built-in provider receives no webhooks');
  },
};

/** A provider whose charges all fail (tests of past due; never configured in production). */
export function failingProvider(reason = 'card_declined'): PaymentProvider {
  return { ...builtinProvider, async charge() {
    return { ok: false, reason };
  } };
}
