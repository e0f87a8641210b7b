// Apart from common/texts.ts, so the landing page's script does not carry the trial screens' words.
/** Free trials (issue 27 item 5). */
export const TRIAL_TEXTS = {
  notFound: 'Trial link not found',
  expired: 'This trial link has expired.',
  disabled: 'This trial link is no longer available.',
  full: 'This trial link has been fully claimed.',
  alreadyUsed: 'You have already used a free trial from this creator.',
  alreadySubscribed: 'You are already subscribed to this creator.',
  selfClaim: 'You cannot claim your own trial link.',
  priceChanged: (price: string) => `The price after the trial is now ${price}. Nothing was claimed: check it and confirm again.`,
  stripeNotYet: 'Free trials are not available with card payments yet.',
  claimFailed: 'Failed to start the trial. Please try again.',
  claimed: (days: number, name: string) => `Your ${days}-day free trial of ${name} has started`,
  signInToClaim: 'You must be logged in to claim a free trial',
  tierRequired: 'Choose a tier',
  daysInvalid: 'Free days must be a whole number from 1 to 90.',
  maxClaimsInvalid: 'Claims must be a whole number from 1 to 100,000.',
  expiresInvalid: 'Choose an expiry date in the future (at most a year from now).',
  created: 'Trial link created',
  disabledDone: 'Trial link disabled',
  disableConfirm: 'Disable this trial link? Fans who already claimed it keep their trial; nobody else can claim it.',
  tierNotFound: 'Tier not found',
  description: (days: number, tier: string) => `${days} days free, then ${tier}`,
} as const;

const TRIAL_INTERVAL = { weekly: 'a week', monthly: 'a month', annually: 'a year' } as const;

/** A subscription still in its free trial (issue 47 item 7): 'Free trial until Dec 13, then R49.00 a month'; cancelled: no 'then'. */
export function trialUntil(date: string, then: { amount: string; interval: keyof typeof TRIAL_INTERVAL } | null): string {
  return then ? `Free trial until ${date}, then ${then.amount} ${TRIAL_INTERVAL[then.interval]}` : `Free trial until ${date}`;
}

/** Offers (issue 27 item 5). */
export const OFFER_TEXTS = {
  notFound: 'Offer not found',
  percentInvalid: 'The discount must be a whole number from 1 to 90.',
  datesInvalid: 'The end must be after the start, within a year from now.',
  created: 'Offer created',
  disabled: 'Offer ended',
  disableConfirm: 'End this offer now? Fans who already subscribed keep what they paid; nobody else gets it.',
  failed: 'Could not save the offer. Please try again.',
} as const;
