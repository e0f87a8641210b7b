import { z } from 'zod';
import { ConfirmedAmount, IdempotencyKey } from './billing-schemas';
import { joinedCursor } from './cursor-schema';
import { formatRand } from './format';
import { attachmentId, messageId, tierId } from './ids';
import { MESSAGE_MAX_LENGTH } from './messages';
import { canonicalRand, fromCents, toCents, wholeRand } from './money';
import { PAID_MESSAGE_TEXTS as T } from './paid-message-texts';
import { safeText } from './text-schema';

/** What a message's file may cost, in rand (the tips' range: a fan pays the same kind of sums). */
export const MESSAGE_PRICE_MIN = 10;
export const MESSAGE_PRICE_MAX = 5_000;
/** Messages to many a creator may start per day (each may reach thousands). */
export const MASS_MESSAGES_PER_DAY = 10;

/** '50', '49.9' -> '50.00', '49.90' within MESSAGE_PRICE_MIN..MAX; null otherwise (the form's check). */
export function messagePriceOf(typed: string): string | null {
  const v = typed.trim();
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(v)) return null;
  const cents = toCents(v);
  return cents >= wholeRand(MESSAGE_PRICE_MIN).cents && cents <= wholeRand(MESSAGE_PRICE_MAX).cents ? fromCents(cents) : null;
}

export const MessagePrice = z
  .string({ error: T.priceInvalid })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, T.priceInvalid)
  .refine((v) => Number(v) >= MESSAGE_PRICE_MIN && Number(v) <= MESSAGE_PRICE_MAX, T.priceRange(formatRand(MESSAGE_PRICE_MIN), formatRand(MESSAGE_PRICE_MAX)))
  .transform((v) => canonicalRand(v));

/** `messages.unlock`: the message, the price the fan confirmed, one key per confirmation. */
export const UnlockMessageInput = z.object({ messageId, confirmedAmount: ConfirmedAmount, idempotencyKey: IdempotencyKey });
export type UnlockMessageInput = z.output<typeof UnlockMessageInput>;

export const MASS_AUDIENCES = ['active', 'tier', 'expired', 'buyers'] as const;
export type MassAudience = (typeof MASS_AUDIENCES)[number];

const content = z
  .string()
  .check(safeText('multi-line'))
  .transform((v) => v.trim())
  .pipe(z.string().max(MESSAGE_MAX_LENGTH));

/** `massMessages.create`: the audience (a tier for 'tier'), text and/or a ready file, an optional price (needs the file). */
export const CreateMassMessageInput = z
  .object({
    audience: z.enum(MASS_AUDIENCES),
    tierId: tierId.nullish(),
    content: content.optional(),
    attachmentId: attachmentId.nullish(),
    price: MessagePrice.nullish(),
    /** one per message the creator composes: a second press sends nothing twice */
    clientId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId must be 1-64 letters, digits, - or _'),
  })
  .refine((v) => v.audience !== 'tier' || v.tierId, { message: T.tierRequired, path: ['tierId'] })
  .refine((v) => !v.price || v.attachmentId, { message: T.priceNeedsFile, path: ['price'] });
export type CreateMassMessageInput = z.output<typeof CreateMassMessageInput>;

export const MassMessageListInput = z.object({ cursor: joinedCursor('~').nullish() }).default({});
export type MassMessageListInput = z.output<typeof MassMessageListInput>;
