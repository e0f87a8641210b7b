// Apart from common/texts.ts, so the landing page's script does not carry the sellers' words.
import type { PayoutAccountStatusDto } from './earnings';

/** What a creator may put up for sale only once their identity is verified (issue 47 item 1). */
export type SaleKind = 'tier' | 'postPrice' | 'messagePrice' | 'massMessagePrice' | 'tips';

export const VERIFICATION_PATH = '/settings/account/verification';

/**
 * The creator's identity as selling reads it (docs/payments.md "Verified before selling"):
 * `provider` the payout account's provider checked the person (Stripe Connect), `test` the
 * built-in provider's test verification (counts only while the platform runs without Stripe).
 */
export interface IdentityVerificationDto {
  verified: boolean;
  via: 'provider' | 'test' | null;
  /** the payments provider the platform runs on: says which way to verify */
  provider: 'builtin' | 'stripe';
  /** with Stripe: the payout account's state (null: none set up yet) */
  payoutStatus: PayoutAccountStatusDto | null;
}

const WHERE = 'Settings → Account → Verification';

const SALE_WORDS: Record<SaleKind, string> = {
  tier: 'create a subscription tier',
  postPrice: 'put a price on a post',
  messagePrice: 'put a price on a message',
  massMessagePrice: 'put a price on a message to many',
  tips: 'take tips',
};

export const SELLING_TEXTS = {
  /** the server's refusal and the screens' notice: what is missing, and where to do it */
  verifyFirst: (sale: SaleKind) => `Verify your identity before you ${SALE_WORDS[sale]}: ${WHERE}.`,
  /** a fan's tip to a creator who may not take tips yet */
  tipsClosed: (name: string) => `${name} cannot take tips yet: their identity is not verified.`,
  noticeTitle: 'Verify your identity to sell',
  noticeBody: 'Fans can pay you (tiers, prices on posts and messages, tips) once your identity is verified.',
  noticeLink: 'Verify your identity',
  identityLabel: 'Identity Verification',
  identityNeededFor: 'Needed before you sell: tiers, prices on posts and messages, tips.',
  identityByProvider: 'Verified by your payout account’s provider',
  identityByTest: 'Test verification (built-in payments): no document was checked',
  testVerifyTitle: 'Test verification',
  testVerifyBody:
    'Payments run on the built-in test provider, so no card is charged and no ID is checked. This marks your identity as verified for testing; on Stripe, Stripe checks it instead.',
  testVerifyButton: 'Verify with test verification',
  testVerified: 'Identity verified (test verification)',
  testVerifyFailed: 'Could not verify your identity. Please try again.',
  testOnlyBuiltin: 'Identity is verified by Stripe when you set up payouts: Settings → Payment → Payouts.',
  stripeVerifyTitle: 'Verify with Stripe',
  stripeVerifyBody: 'Stripe checks your identity (an ID document) when you set up your payout account.',
  stripeStatus: {
    none: 'No payout account yet.',
    details_needed: 'Stripe still needs details from you.',
    pending: 'Stripe is checking your details.',
    enabled: 'Payouts are enabled; Stripe has not confirmed your identity yet.',
  } satisfies Record<PayoutAccountStatusDto | 'none', string>,
  stripeVerifyButton: 'Continue at Stripe',
} as const;
