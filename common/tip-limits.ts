import { fromCents, toCents, wholeRand } from './money';

/** Tips (issue 27 item 1): the amounts a fan may give, in rand, and the presets the dialog offers (no zod: the web app's post card reads these). */
export const TIP_MIN = 10;
export const TIP_MAX = 5_000;
export const TIP_PRESETS = [20, 50, 100] as const;
export const TIP_MESSAGE_MAX = 200;

/** '50', '49.9' -> '50.00', '49.90' when it is a tip amount in range; null otherwise (the server's TipAmount, for the form). */
export function tipAmountOf(typed: string): string | null {
  const v = typed.trim();
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(v)) return null;
  const cents = toCents(v);
  return cents >= wholeRand(TIP_MIN).cents && cents <= wholeRand(TIP_MAX).cents ? fromCents(cents) : null;
}
