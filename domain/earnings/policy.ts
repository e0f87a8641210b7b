import { toCents } from '../../common/money';

/**
 * The settings the earnings ledger follows (core/config.ts): the platform's fee in whole percent,
 * the days an earning is held before it is available, the least a payout may be (cents) and the
 * weekday of the automatic payouts (UTC, 0 = Sunday).
 */
export interface EarningsPolicy {
  feePercent: number;
  holdDays: number;
  payoutMinimumCents: number;
  payoutWeekday: number;
}

export const DEFAULT_EARNINGS_POLICY: EarningsPolicy = { feePercent: 20, holdDays: 7, payoutMinimumCents: 20_000, payoutWeekday: 1 };

export function earningsPolicy(config: { PLATFORM_FEE_PERCENT: number; EARNINGS_HOLD_DAYS: number; PAYOUT_MINIMUM: string; PAYOUT_WEEKDAY: number }): EarningsPolicy {
  return {
    feePercent: config.PLATFORM_FEE_PERCENT,
    holdDays: config.EARNINGS_HOLD_DAYS,
    payoutMinimumCents: toCents(config.PAYOUT_MINIMUM),
    payoutWeekday: config.PAYOUT_WEEKDAY,
  };
}
