import { z } from 'zod';
import { ConfirmedAmount, IdempotencyKey } from './billing-schemas';
import { formatRand } from './format';
import { postId } from './ids';
import { toCents, wholeRand } from './money';
import { POST_UNLOCK_TEXTS as T } from './post-unlock-texts';

/**
 * Pay-per-view posts (issue 27 item 2; docs/payments.md "Pay-per-view posts"): the price bounds in
 * rand (the same as a tip's), who pays, and the inputs of `postUnlocks.unlock`.
 */
export const UNLOCK_MIN = 10;
export const UNLOCK_MAX = 5_000;
/** 'everyone': subscribers pay too; 'non_subscribers': the creator's active subscribers see it with their subscription */
export const UNLOCK_MODES = ['everyone', 'non_subscribers'] as const;
export type UnlockMode = (typeof UNLOCK_MODES)[number];
/** A creator pins at most this many posts to the top of their profile (issue 29 item 5). */
export const MAX_PINNED_POSTS = 3;

/** '50', '49.9' -> 5000, 4990 cents when it is an unlock price in range; null otherwise (the form's check). */
export function unlockCentsOf(typed: string): number | null {
  const v = typed.trim();
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(v)) return null;
  const cents = toCents(v);
  return cents >= wholeRand(UNLOCK_MIN).cents && cents <= wholeRand(UNLOCK_MAX).cents ? cents : null;
}

/** Rand as typed -> cents, within UNLOCK_MIN..UNLOCK_MAX. */
export const UnlockPrice = z
  .string({ error: T.priceInvalid })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, T.priceInvalid)
  .refine((v) => Number(v) >= UNLOCK_MIN, T.priceTooLow(formatRand(UNLOCK_MIN)))
  .refine((v) => Number(v) <= UNLOCK_MAX, T.priceTooHigh(formatRand(UNLOCK_MAX)))
  .transform((v) => toCents(v));

/** A post's price and who pays it; null: not pay-per-view. */
export const UnlockSetting = z.object({ price: UnlockPrice, mode: z.enum(UNLOCK_MODES) }).nullable();
export type UnlockSetting = z.output<typeof UnlockSetting>;

/**
 * The unlock price as a form holds it flat (a switch, the typed price, who pays) where the server
 * takes { price, mode } | null: the Edit post dialog and the upload form share these fields, the
 * check (`refineUnlockFields`, UnlockPrice's own messages beside the price) and `unlockOfFields`.
 */
export const UnlockFormFields = { payPerView: z.boolean(), unlockPrice: z.string(), unlockMode: z.enum(UNLOCK_MODES) };
export type UnlockFormValues = { payPerView: boolean; unlockPrice: string; unlockMode: UnlockMode };

export function refineUnlockFields(v: UnlockFormValues, ctx: z.RefinementCtx) {
  if (!v.payPerView) return;
  const price = UnlockPrice.safeParse(v.unlockPrice);
  if (!price.success) ctx.addIssue({ code: 'custom', path: ['unlockPrice'], message: price.error.issues[0]?.message ?? T.priceInvalid });
}

/** The form's fields as the server takes them: null when not pay-per-view. */
export const unlockOfFields = (v: UnlockFormValues): { price: string; mode: UnlockMode } | null => (v.payPerView ? { price: v.unlockPrice.trim(), mode: v.unlockMode } : null);

/** `postUnlocks.unlock`: the post, the price the fan confirmed, one idempotency key per confirmed unlock. */
export const UnlockPostInput = z.object({ postId, idempotencyKey: IdempotencyKey, confirmedAmount: ConfirmedAmount });
export type UnlockPostInput = z.output<typeof UnlockPostInput>;
