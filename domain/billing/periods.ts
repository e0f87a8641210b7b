import { addCalendarMonths, periodEnd } from '../../common/billing-periods';
import type { PaymentInterval } from '../../common/enums';

export const DAY_MS = 24 * 60 * 60_000;

/** The payment screen's Premium period (spec part 2 §4, §9): 30 days. */
export const PREMIUM_PERIOD_DAYS = 30;
/**
 * A renewal charge that fails leaves the fan past due: access lasts this long past the period end
 * while the job retries the charge on each run, then the subscription ends (docs/payments.md).
 */
export const GRACE_DAYS = 3;
/** Annual subscriptions get a reminder e-mail this long before they renew. */
export const REMINDER_DAYS = 7;
/** A free trial's fan is reminded this long before it converts to paid (issue 27 item 5). */
export const TRIAL_REMINDER_DAYS = 2;
/**
 * The job renews a subscription up to this long before its period ends (the new period starts at
 * the old end), so a fan never loses access between the end and the next run.
 */
export const RENEW_AHEAD_MS = 60 * 60_000;

// the period arithmetic is shared with the fan's confirmation before paying (its first renewal date)
export { addCalendarMonths, periodEnd };

/** The platform's Premium runs 30 days; a creator's tier follows its interval, `periods` of them for a bundle. */
export function periodEndFor(start: Date, tier: { creator_id: string | null; payment_interval: PaymentInterval }, periods: number | null = 1): Date {
  return tier.creator_id === null ? new Date(start.getTime() + PREMIUM_PERIOD_DAYS * DAY_MS) : periodEnd(start, tier.payment_interval, periods ?? 1);
}
