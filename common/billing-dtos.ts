import type { MediaKind, PaymentInterval } from './enums';
import type { BundleOfferDto } from './bundle-schemas';

/** What the tiers, subscriptions, payments and creatorStats procedures return (issue 11). */

export type PaymentProviderName = 'builtin' | 'stripe';

export interface PublicTierDto {
  id: string;
  name: string;
  description: string | null;
  /** '50.00' */
  price: string;
  paymentInterval: PaymentInterval;
  discountPercentage: number | null;
  /** price after the discount, what a subscriber pays: '40.00' */
  discountedPrice: string;
  /**
   * An offer that applies to this viewer now (issue 27 item 5): the first period at `price`
   * ('30.00', `percent` off), renewals at `discountedPrice`; absent or null: none.
   */
  offer?: { percent: number; price: string; audience: 'new' | 'expired'; endsAt: Date } | null;
  /** the tier for 3, 6 or 12 periods at once (issue 27 item 5), shortest first; absent: none */
  bundles?: BundleOfferDto[];
}

/** A tier in its creator's manager. */
export interface TierDto extends PublicTierDto {
  archivedAt: Date | null;
  activeSubscribers: number;
}

export type PremiumCounts = Record<MediaKind, number> & { total: number };

export interface SubscribePageDto {
  creator: { id: string; username: string; displayName: string; avatarUrl: string | null; isVerified: boolean };
  /** not archived, price ascending */
  tiers: PublicTierDto[];
  /** what a subscription unlocks today: the creator's published premium posts by kind */
  premiumCounts: PremiumCounts;
  viewer: {
    signedIn: boolean;
    isOwner: boolean;
    subscription: { id: string; tierId: string; tierName: string; currentPeriodEnd: Date; cancelAtPeriodEnd: boolean } | null;
  };
  provider: PaymentProviderName;
}

export type SubscribeResultDto =
  | { kind: 'subscribed'; creatorUsername: string; subscriptionId: string; currentPeriodEnd: Date }
  | { kind: 'redirect'; url: string }
  | { kind: 'tier-change-scheduled'; creatorUsername: string; tierName: string; effectiveAt: Date };

export type PremiumResultDto = { kind: 'subscribed'; username: string; currentPeriodEnd: Date } | { kind: 'redirect'; url: string };

export interface PremiumTierDto extends PublicTierDto {
  /** the payment screen's period: 30 days */
  periodDays: number;
}

export type MySubscriptionStatus = 'active' | 'past_due' | 'canceling' | 'ended';

export interface MySubscriptionDto {
  id: string;
  /** null: the platform's Premium */
  creator: { id: string; username: string; displayName: string; avatarUrl: string | null } | null;
  /**
   * `discountedPrice`: what this fan pays each period (the price agreed, or the tier's lower price
   * of today); `archived`: new fans can no longer choose it (resubscribing means choosing another plan)
   */
  tier: { id: string; name: string; price: string; paymentInterval: PaymentInterval; discountedPrice: string; archived: boolean };
  status: MySubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** past due: access lasts until then */
  graceUntil: Date | null;
  /** in a free trial that ends then (its first charge, unless cancelled); null when not a trial any more */
  trialEndsAt?: Date | null;
  /** a tier change that takes effect at the next renewal */
  nextTier: { id: string; name: string } | null;
  /** bought as a bundle: `tier.discountedPrice` is then what each renewal of that many periods charges */
  bundlePeriods?: number | null;
}

/** A ledger row's kind: a charge, or a reversal of one (docs/payments.md, "Refunds and disputes"). */
export type PaymentKind = 'charge' | 'refund' | 'dispute' | 'dispute_won';

/**
 * What the Payment History says of a row, from the ledger: a charge is paid, failed, refunded (in
 * full), partly refunded or disputed (a dispute still open or lost); a reversal row says what it is.
 */
export type PaymentLabel = 'paid' | 'failed' | 'refunded' | 'partly-refunded' | 'disputed' | 'refund' | 'chargeback' | 'dispute-won';

export interface PaymentDto {
  id: string;
  description: string;
  /** negative for a refund or a chargeback */
  amount: string;
  currency: string;
  status: 'succeeded' | 'failed' | 'refunded';
  kind: PaymentKind;
  label: PaymentLabel;
  provider: string;
  createdAt: Date;
  /** a charge that took money: its receipt's number ('CH-000042'); null for reversals and failed charges */
  receiptNumber: string | null;
}

/** A charge as the admin's payments screen shows it (issue 22 §4). */
export interface AdminPaymentDto {
  id: string;
  description: string;
  amount: string;
  /** refunded so far (positive) */
  refunded: string;
  /** asked of the provider, not confirmed yet */
  pendingRefund: string;
  /** what an admin may still refund: amount − refunded − pending (0.00 when disputed) */
  refundable: string;
  label: PaymentLabel;
  provider: string;
  providerRef: string | null;
  createdAt: Date;
  fan: { username: string; email: string } | null;
  creator: { username: string } | null;
}

export interface SubscriberRowDto {
  subscriptionId: string;
  fan: { id: string; username: string; displayName: string; avatarUrl: string | null };
  tierName: string;
  since: Date;
  renewsAt: Date;
  cancelAtPeriodEnd: boolean;
}

export interface SubscribersPageDto {
  items: SubscriberRowDto[];
  nextCursor: string | null;
}

export interface EarningsDto {
  currency: 'ZAR';
  thisMonth: string;
  lastMonth: string;
  /** the last 12 weeks (Monday-start, UTC), oldest first; the last is the current week */
  weekly: { weekStart: Date; total: string }[];
  tiers: { tierId: string; name: string; activeSubscribers: number; archived: boolean }[];
}

export interface ProviderDto {
  provider: PaymentProviderName;
  label: string;
}
