import { z } from 'zod';
import { BundlePeriodsInput } from './bundle-schemas';
import { joinedCursor } from './cursor-schema';
import { isUuid, premiumTierId, subscriptionId, tierId } from './ids';
import { PAYMENT_INTERVALS } from './enums';
import { canonicalRand } from './money';
import { safeText } from './text-schema';
import { BILLING_TEXTS as T } from './texts';

/**
 * Inputs of the tiers, subscriptions, payments and creatorStats procedures (issue 11), shared by
 * the forms and the server. Money travels as a decimal string of rand with at most 2 decimals; the
 * server takes it into cents (common/money.ts `toCents`).
 */


/** The most a tier may cost per period (issue 22: a sane bound, so no fan is charged a mistyped fortune). */
export const MAX_TIER_PRICE = 100_000;

/** Rand with at most 2 decimals, more than 0, at most MAX_TIER_PRICE: '50', '49.9', 40.5 -> '50.00', '49.90', '40.50'. */
export const PriceInput = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .pipe(
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, T.priceInvalid)
      .regex(/^\d+(\.\d{1,2})?$/, T.priceDecimals)
      .refine((v) => Number(v) > 0, T.priceInvalid)
      .refine((v) => Number(v) <= MAX_TIER_PRICE, T.priceTooHigh)
      .transform((v) => canonicalRand(v)),
  );

export const DiscountInput = z
  .number({ error: T.discountInvalid })
  .int(T.discountInvalid)
  .min(0, T.discountInvalid)
  .max(100, T.discountInvalid)
  .nullish()
  .transform((v) => v ?? null);

export const TierInput = z.object({
  name: z.string({ error: T.tierNameRequired }).trim().check(safeText('single-line')).min(1, T.tierNameRequired).max(60, T.tierNameTooLong),
  description: z
    .string()
    .trim()
    .check(safeText('multi-line'))
    .max(500, T.tierDescriptionTooLong)
    .nullish()
    .transform((v) => (v ? v : null)),
  price: PriceInput,
  paymentInterval: z.enum(PAYMENT_INTERVALS, { error: T.intervalInvalid }),
  discountPercentage: DiscountInput,
});
export type TierInput = z.output<typeof TierInput>;
/** What the tier form holds before parsing (price as typed). */
export type TierFormValues = z.input<typeof TierInput>;

export const TierIdInput = z.object({ id: tierId });
export type TierIdInput = z.output<typeof TierIdInput>;

export const UpdateTierInput = TierInput.extend({ id: tierId });
export type UpdateTierInput = z.output<typeof UpdateTierInput>;

/**
 * A key the client makes once per Subscribe intent, reused by its retries: a UUID and nothing
 * else, so it can never look like a key the system makes (renewals and the like, docs/payments.md).
 */
export const IdempotencyKey = z.string().refine(isUuid, T.requestKeyInvalid);

/**
 * The amount the fan saw and confirmed before paying (issue 22 item 7), rand as a decimal string:
 * '40', '40.5' -> '40.00', '40.50'. The server refuses the purchase when it is not what would be
 * charged now (the price changed under the fan).
 */
export const ConfirmedAmount = z
  .string({ error: T.confirmedAmountMissing })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, T.confirmedAmountMissing)
  .transform((v) => {
    const [units = '0', cents = ''] = v.split('.');
    return `${units.replace(/^0+(?=\d)/, '')}.${cents.padEnd(2, '0')}`;
  });

/** `bundlePeriods`: the tier bought for 3, 6 or 12 periods at once (issue 27 item 5); absent: one period. */
export const SubscribeInput = z.object({ tierId, idempotencyKey: IdempotencyKey, confirmedAmount: ConfirmedAmount, bundlePeriods: BundlePeriodsInput.nullish() });
export type SubscribeInput = z.output<typeof SubscribeInput>;

export const SubscribePageInput = z.object({ username: z.string().trim().min(1).max(100) });
export type SubscribePageInput = z.output<typeof SubscribePageInput>;

export const PremiumTierInput = z.object({
  tierId: premiumTierId.nullish(),
});
export type PremiumTierInput = z.output<typeof PremiumTierInput>;

export const UpgradePremiumInput = z.object({
  tierId: premiumTierId,
  idempotencyKey: IdempotencyKey,
  confirmedAmount: ConfirmedAmount,
});
export type UpgradePremiumInput = z.output<typeof UpgradePremiumInput>;

export const SubscriptionIdInput = z.object({
  id: subscriptionId,
});
export type SubscriptionIdInput = z.output<typeof SubscriptionIdInput>;

/** Keyset position in the subscribers list: opaque to clients (they send back `nextCursor`). */
export const SubscribersInput = z.object({ cursor: joinedCursor('|').nullish() });
export type SubscribersInput = z.output<typeof SubscribersInput>;

