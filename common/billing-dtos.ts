import type { MediaKind, PaymentInterval } from './enums';

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
  /** `archived`: new fans can no longer choose it (resubscribing means choosing another plan) */
  tier: { id: string; name: string; price: string; paymentInterval: PaymentInterval; discountedPrice: string; archived: boolean };
  status: MySubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** past due: access lasts until then */
  graceUntil: Date | null;
  /** a tier change that takes effect at the next renewal */
  nextTier: { id: string; name: string } | null;
}

export interface PaymentDto {
  id: string;
  description: string;
  amount: string;
  currency: string;
  status: 'succeeded' | 'failed' | 'refunded';
  provider: string;
  createdAt: Date;
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
