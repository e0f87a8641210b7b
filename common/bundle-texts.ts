// Apart from common/texts.ts, so the landing page's script does not carry the bundle screens' words.
import type { PaymentInterval } from './enums';

const UNITS: Record<PaymentInterval, [string, string]> = { weekly: ['week', 'weeks'], monthly: ['month', 'months'], annually: ['year', 'years'] };

/** Bundles: a tier bought for 3, 6 or 12 periods at once at a discount (issue 27 item 5). */
export const BUNDLE_TEXTS = {
  heading: 'Bundles',
  managerIntro: 'Let fans pay for several periods at once at a discount. Leave a length empty to not offer it.',
  percentLabel: (periods: number, interval: PaymentInterval) => `${periods} ${UNITS[interval][1]}: % off`,
  percentInvalid: 'The bundle discount must be a whole number from 1 to 75.',
  periodsInvalid: 'A bundle is 3, 6 or 12 periods.',
  annualNotAllowed: 'Bundles are for weekly and monthly tiers.',
  archivedTier: 'An archived tier cannot get bundles.',
  save: 'Save bundles',
  saved: 'Bundles saved',
  notFound: 'This bundle is no longer offered. Nothing was charged: choose again.',
  premiumNotAllowed: 'Premium has no bundles.',
  alreadySubscribed: 'You are already subscribed to this creator.',
  /** '3 months' */
  length: (periods: number, interval: PaymentInterval) => `${periods} ${UNITS[interval][periods === 1 ? 0 : 1]}`,
  /** '3-month bundle' */
  bundleName: (periods: number, interval: PaymentInterval) => `${periods}-${UNITS[interval][0]} bundle`,
  /** the plan's name in the confirmation and the ledger: 'Gold — 3 months' */
  planName: (tier: string, periods: number, interval: PaymentInterval) => `${tier} — ${periods} ${UNITS[interval][1]}`,
  saving: (amount: string, percent: number) => `Save ${amount} (${percent}% off)`,
  choose: (periods: number, interval: PaymentInterval) => `Buy ${periods} ${UNITS[interval][1]}`,
  noStacking: 'Offers apply to single periods, not to bundles.',
  renewsAsBundle: (periods: number, interval: PaymentInterval) => `Bundle: renews every ${periods} ${UNITS[interval][1]}`,
} as const;
