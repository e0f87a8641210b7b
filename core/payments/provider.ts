import type { PaymentInterval } from '../../common/enums';
import type { PaymentProviderName } from '../../common/billing-dtos';

/**
 * The payment provider interface (docs/payments.md). The built-in provider, the default, records
 * charges without calling anyone (the spec calls no card provider); the Stripe provider is chosen
 * when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set. Billing code (domain/billing) talks to
 * this interface only.
 */

export interface ChargeRequest {
  userId: string;
  /** whole cents: 4000 is R40.00 */
  amountCents: number;
  description: string;
  /** the same key is the same charge at the provider */
  idempotencyKey: string;
}

export type ChargeResult = { ok: true; ref: string } | { ok: false; reason: string };

export interface CheckoutRequest {
  userId: string;
  email: string;
  tierId: string;
  amountCents: number;
  interval: PaymentInterval;
  /** the Premium upgrade renews every 30 days */
  intervalDays?: number;
  /** a bundle: charged and renewed every this many intervals (Stripe's recurring.interval_count) */
  intervalCount?: number;
  description: string;
  idempotencyKey: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * A one-off purchase (a tip, a post or message unlock) paid on the provider's hosted page
 * (Stripe Checkout in payment mode): its metadata names our pending charge, which the webhook
 * completes (domain/billing/one-off.ts).
 */
export interface OneOffCheckoutRequest {
  userId: string;
  email: string;
  amountCents: number;
  description: string;
  /** the pending_charges row the webhook completes */
  pendingId: string;
  idempotencyKey: string;
  successUrl: string;
  cancelUrl: string;
}

/** A card on file: what names it at the provider, never its number. */
export interface SavedCard {
  customerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
}

/** A charge of a card on file, off the page (the fan confirmed it in the app). */
export interface CardChargeRequest {
  userId: string;
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  description: string;
  pendingId: string;
  idempotencyKey: string;
  /** where the bank's 3-D Secure page sends the fan back to */
  returnUrl: string;
}

/**
 * 'succeeded': the money is in now; 'requires_action': the bank asks the fan to confirm (3-D
 * Secure) on `url`, and the webhook completes the purchase; 'processing': the webhook completes it
 * later; 'declined': nothing was charged.
 */
export type CardChargeResult =
  | { status: 'succeeded'; ref: string }
  | { status: 'requires_action'; ref: string; url: string }
  | { status: 'processing'; ref: string }
  | { status: 'declined'; reason: string };

/**
 * Whether a finished Checkout has the money: 'paid', 'unpaid' (an asynchronous payment method
 * still clearing: Stripe says later with checkout.session.async_payment_succeeded or _failed), or
 * 'no_payment_required' (nothing to pay, which counts only where the price is zero).
 */
export type CheckoutPaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';

/** The provider's names for one charge, as an event carries them (whichever it has). */
export interface ChargeRef {
  chargeId: string | null;
  paymentIntent: string | null;
  invoice: string | null;
}

/** One refund the provider made of a charge. */
export interface ProviderRefund {
  id: string;
  /** whole cents, positive */
  amountCents: number;
  /** the ledger's key it was asked for with (an admin's refund); null: made elsewhere (the dashboard) */
  reversalKey: string | null;
}

/** What the provider knows of a charge: the references our ledger may hold it under, and its refunds. */
export interface ProviderCharge {
  refs: string[];
  refunds: ProviderRefund[];
}

/** A verified provider webhook event, in the terms billing code applies. */
export type ProviderEvent =
  | {
      id: string;
      kind: 'checkout-completed';
      userId: string;
      tierId: string;
      idempotencyKey: string;
      /** bought as a bundle of this many periods (the Checkout's metadata); null: one period */
      bundlePeriods: number | null;
      providerSubscriptionId: string | null;
      paymentRef: string;
      amountCents: number;
      paymentStatus: CheckoutPaymentStatus;
    }
  /** the money of a pending one-off purchase is in (a payment-mode Checkout, or a card's PaymentIntent after 3-D Secure) */
  | { id: string; kind: 'one-off-paid'; pendingId: string; paymentRef: string; amountCents: number; paymentStatus: CheckoutPaymentStatus }
  /** a setup-mode Checkout finished: the fan's card is on file at the provider */
  | { id: string; kind: 'card-saved'; userId: string; setupIntentId: string }
  /** an asynchronous Checkout payment that did not go through: nothing starts, the fan is told */
  | { id: string; kind: 'checkout-failed'; userId: string; tierId: string }
  /** money went back on a charge (in full or in part, by us or in the provider's dashboard) */
  | { id: string; kind: 'charge-refunded'; charge: ChargeRef }
  /** the payer disputed a charge (a chargeback): `amountCents` is what the provider took back */
  | { id: string; kind: 'dispute-opened'; disputeId: string; charge: ChargeRef; amountCents: number }
  /** a dispute ended: won (the money came back to us) or lost */
  | { id: string; kind: 'dispute-closed'; disputeId: string; charge: ChargeRef; amountCents: number; won: boolean }
  | {
      id: string;
      kind: 'invoice-paid';
      providerSubscriptionId: string;
      paymentRef: string;
      amountCents: number;
      periodEnd: Date | null;
      firstInvoice: boolean;
      /** the fan and tier our Checkout put in the subscription's metadata (null: a subscription this app did not make) */
      subscriber: { userId: string; tierId: string } | null;
    }
  | { id: string; kind: 'invoice-failed'; providerSubscriptionId: string }
  | { id: string; kind: 'subscription-ended'; providerSubscriptionId: string }
  /** a creator's payout account changed at the provider (Stripe's account.updated) */
  | { id: string; kind: 'payout-account-updated'; accountId: string; state: PayoutAccountState }
  | { id: string; kind: 'ignored'; type: string };

/**
 * A payout account as the provider sees it: 'details_needed' (onboarding unfinished or more asked),
 * 'pending' (submitted, being checked), 'enabled' (payouts can be sent); and whether the provider
 * has verified the person's identity.
 */
export interface PayoutAccountState {
  status: 'details_needed' | 'pending' | 'enabled';
  identityVerified: boolean;
}

/** One payout to a creator's account: `ok: false` is a refusal that retrying will not change (the amount goes back). */
export type TransferResult = { ok: true; ref: string } | { ok: false; reason: string };

/** What moved the provider's balance, by the ledger's kinds of money (issue 45's reconciliation). */
export type ProviderMoneyKind = 'charges' | 'refunds' | 'disputes' | 'transfers';

/** The provider's own account of its balance over a time: signed cents by kind (charges in, the rest out). */
export type ProviderBalanceTotals = Record<ProviderMoneyKind, number>;

/** What a provider does, as billing code asks it (./capabilities.ts has each provider's). */
export interface ProviderCapabilities {
  /**
   * It renews the subscriptions it sold itself and says so by webhook (Stripe): the billing job
   * never charges them and ends one that heard nothing past its grace, and a subscription that
   * stops here must be told to stop there.
   */
  readonly renewsItself: boolean;
  /** The built-in test provider: payments are recorded without a card, and no money moves. */
  readonly isTest: boolean;
}

export interface PaymentProvider extends ProviderCapabilities {
  readonly name: PaymentProviderName;
  /** 'direct': `charge` now and record it; 'checkout': a hosted page, the webhook records it */
  readonly flow: 'direct' | 'checkout';
  charge(request: ChargeRequest): Promise<ChargeResult>;
  createCheckout(request: CheckoutRequest): Promise<{ url: string; ref: string }>;
  /** a provider-managed subscription stops (or no longer stops) at its period end */
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<void>;
  /**
   * A provider-managed subscription ends now, not at its period end, and charges nothing more (a
   * duplicate checkout, domain/billing/duplicate-checkout.ts). Safe to repeat: one already ended is done.
   */
  cancelNow(providerSubscriptionId: string): Promise<void>;
  /**
   * Whether the provider has ended this subscription (asked, not inferred from which webhook came
   * first: Stripe does not promise the order of its events).
   */
  subscriptionEnded(providerSubscriptionId: string): Promise<boolean>;
  /**
   * The payment back to the payer: all of it, or `amountCents`. Safe to repeat: the same
   * `idempotencyKey` (default: one per ref) refunds once; at Stripe the key also goes in the
   * refund's metadata (`reversal_key`), so the charge.refunded webhook knows the refund as ours.
   * Answers the provider's id for it (null: the built-in provider, or a payment already refunded in full).
   */
  refund(paymentRef: string, opts?: { amountCents?: number; idempotencyKey?: string }): Promise<{ ref: string | null }>;
  /** The references and refunds of the charge an event names (webhook providers; asked before the event's transaction). */
  chargeInfo(charge: ChargeRef): Promise<ProviderCharge>;
  /**
   * A creator's payout account (issue 26): Stripe creates a Connect Express account (once per user:
   * the same user gets the same account); the built-in provider a test account that moves no money.
   */
  createPayoutAccount(request: { userId: string; email: string }): Promise<{ accountId: string; state: PayoutAccountState }>;
  /** Where the creator finishes the account's details (Stripe's hosted onboarding); null when there is nothing to fill in. */
  payoutOnboardingUrl(accountId: string, urls: { refreshUrl: string; returnUrl: string }): Promise<string | null>;
  /** The account's state now (asked when the creator comes back from onboarding). */
  payoutAccountState(accountId: string): Promise<PayoutAccountState>;
  /**
   * Pays a payout to the account (with Stripe a Transfer: separate charges and transfers). Safe to
   * repeat: the same `idempotencyKey` is one transfer. Throws when the answer may change on a retry
   * (a network error, the provider down); answers `ok: false` when the provider refused it.
   */
  transfer(request: { accountId: string; amountCents: number; idempotencyKey: string; payoutId: string }): Promise<TransferResult>;
  /** A one-off purchase's hosted payment page (webhook providers only). */
  createOneOffCheckout(request: OneOffCheckoutRequest): Promise<{ url: string; ref: string }>;
  /** The fan's customer at the provider, made once per user (the same user gets the same one). */
  createCustomer(request: { userId: string; email: string }): Promise<string>;
  /** The provider's hosted page where the fan enters a card to keep on file (Stripe: Checkout in setup mode). */
  createCardSetup(request: { userId: string; customerId: string; successUrl: string; cancelUrl: string }): Promise<{ url: string }>;
  /** The card a finished setup saved (asked when its webhook arrives). */
  cardOfSetup(setupIntentId: string): Promise<SavedCard>;
  /** Charges the card on file off the page; the same `idempotencyKey` is the same charge. */
  chargeCard(request: CardChargeRequest): Promise<CardChargeResult>;
  /** The card is no longer usable by this app (Stripe: detached from the customer). Safe to repeat. */
  removeCard(paymentMethodId: string): Promise<void>;
  /**
   * The provider's own records of [from, to): what moved its balance, by kind (Stripe: its balance
   * transactions). Null: the provider keeps no records of its own (the built-in provider's records
   * are our payments and payouts rows).
   */
  balanceTotals(from: Date, to: Date): Promise<ProviderBalanceTotals | null>;
  /** throws WebhookSignatureError unless the body is signed with the webhook secret */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

export class WebhookSignatureError extends Error {}
