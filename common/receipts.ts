import { z } from 'zod';
import type { PaymentLabel } from './billing-dtos';
import { entityId } from './ids';
import { WALLET_TEXTS } from './wallet-texts';

/**
 * A purchase's receipt (issue 47 item 6; docs/payments.md, "Receipts"): what was bought, from whom,
 * when, the amount and every reversal since, under the number the charge got once
 * (payments.receipt_number). Read on the receipt screen and printed into its PDF.
 */
export interface ReceiptDto {
  paymentId: string;
  /** 'CH-000042' */
  number: string;
  description: string;
  /** who sold it: the creator (null username once their account is gone), or the platform for Premium */
  seller: { name: string; username: string | null };
  buyer: { name: string; email: string };
  paidAt: Date;
  /** rand, as charged: '311.00' */
  amount: string;
  currency: string;
  provider: string;
  label: PaymentLabel;
  /** refunds and chargebacks (negative) and disputes won (positive), oldest first */
  reversals: { kind: 'refund' | 'dispute' | 'dispute_won'; amount: string; at: Date }[];
  /** what the fan paid less what came back: amount plus every reversal */
  net: string;
}

/** A receipt's number as the fan reads it: six digits at least, after the platform's initials. */
export function receiptNumberLabel(receiptNumber: string | number): string {
  return `CH-${String(receiptNumber).padStart(6, '0')}`;
}

export const ReceiptInput = z.strictObject({ paymentId: entityId(WALLET_TEXTS.receiptNotFound) });
export type ReceiptInput = z.output<typeof ReceiptInput>;
