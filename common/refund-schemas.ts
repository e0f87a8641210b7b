import { z } from 'zod';
import { IdempotencyKey } from './billing-schemas';
import { paymentId } from './ids';
import { safeText } from './text-schema';
import { REFUND_TEXTS as T } from './payment-texts';

/** Inputs of the admin's payments screen (issue 22 §4, docs/payments.md "Refunds and disputes"). */

export const AdminPaymentSearchInput = z.object({
  /** a fan's username or e-mail, a creator's username, a payment id or a provider reference */
  query: z.string({ error: T.queryRequired }).trim().check(safeText('single-line')).min(1, T.queryRequired).max(200, T.queryRequired),
});
export type AdminPaymentSearchInput = z.output<typeof AdminPaymentSearchInput>;

/** Rand, more than 0, at most 2 decimals, as '12.50'. */
const RefundAmount = z
  .string({ error: T.amountInvalid })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, T.amountInvalid)
  .refine((v) => /[1-9]/.test(v), T.amountInvalid)
  .transform((v) => {
    const [whole, cents = ''] = v.split('.');
    return `${Number(whole)}.${cents.padEnd(2, '0')}`;
  });

export const AdminRefundInput = z.object({
  paymentId,
  amount: RefundAmount,
  /** one per Refund press, reused by its retries: one refund however often it is sent */
  idempotencyKey: IdempotencyKey,
});
export type AdminRefundInput = z.output<typeof AdminRefundInput>;
export type AdminRefundFormValues = z.input<typeof AdminRefundInput>;
