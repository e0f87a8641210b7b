import { z } from 'zod';
import { formatRand } from './format';
import { canonicalRand } from './money';
import { IdempotencyKey, ConfirmedAmount } from './billing-schemas';
import { safeText } from './text-schema';
import { TIP_TEXTS as T } from './tip-texts';

import { TIP_MAX, TIP_MESSAGE_MAX, TIP_MIN } from './tip-limits';

/** Rand as typed ('50', '49.9') -> '50.00', '49.90', within TIP_MIN..TIP_MAX. */
export const TipAmount = z
  .string({ error: T.amountInvalid })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, T.amountInvalid)
  .refine((v) => Number(v) >= TIP_MIN, T.amountTooLow(formatRand(TIP_MIN)))
  .refine((v) => Number(v) <= TIP_MAX, T.amountTooHigh(formatRand(TIP_MAX)))
  .transform((v) => canonicalRand(v));

export const TipMessage = z
  .string()
  .trim()
  .check(safeText('multi-line'))
  .max(TIP_MESSAGE_MAX, T.messageTooLong)
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * `tips.send`: the creator by username (a post, the profile and a chat all show it), the amount
 * the fan chose and confirmed (`confirmedAmount` must equal `amount`: the dialog's Pay button is
 * the confirmation), and one idempotency key per confirmed tip.
 */
export const SendTipInput = z.object({
  creatorUsername: z.string().trim().min(1).max(100),
  amount: TipAmount,
  message: TipMessage,
  idempotencyKey: IdempotencyKey,
  confirmedAmount: ConfirmedAmount,
});
export type SendTipInput = z.output<typeof SendTipInput>;
