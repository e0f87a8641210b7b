// Apart from common/texts.ts, so the landing page's script does not carry these screens' words.
/** Refunds, disputes and the admin's payments screen (issue 22 §4; not in the spec: our own words). */
export const REFUND_TEXTS = {
  paymentNotFound: 'Payment not found',
  amountInvalid: 'Enter an amount greater than R0.00 with at most 2 decimals',
  amountTooHigh: (left: string) => `You can refund at most ${left} of this payment`,
  nothingLeft: 'This payment has been refunded in full',
  notRefundable: 'Only a successful charge can be refunded',
  disputed: 'This payment is disputed: the card issuer decides, so it cannot be refunded here',
  otherProvider: 'This payment was taken by another provider than the one configured: refund it there',
  queryRequired: 'Enter a username, an e-mail address or a payment reference',
  refundQueued: 'Refund requested: the payment shows it once the provider confirms',
  refundFailed: 'The refund could not be requested. Please try again.',
} as const;

/** The Payment History's and the admin screen's word for a ledger row (PaymentLabel, common/billing-dtos.ts). */
export const PAYMENT_LABEL_TEXTS = {
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  'partly-refunded': 'Partly refunded',
  disputed: 'Disputed',
  refund: 'Refund',
  chargeback: 'Chargeback',
  'dispute-won': 'Dispute won',
} as const;

/** The purchase confirmation's terms line for a one-off purchase (a pay-per-view post or message, a tip): not a subscription fee. */
export const ONE_OFF_PURCHASE_TEXTS = {
  final: 'Purchases are final, except where the law requires a refund.',
} as const;
