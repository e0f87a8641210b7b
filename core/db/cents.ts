/**
 * Money columns hold whole cents as bigint (docs/payments.md, "Money in cents"), which pg answers
 * as strings: they become numbers here, exactly (a whole number below 2^53), on the way out of a query.
 */

/** '1050' (a bigint cents column, or a sum of one) -> 1050; null stays null. */
export function readCents(stored: string): number;
export function readCents(stored: string | null): number | null;
export function readCents(stored: string | null): number | null {
  if (stored === null) return null;
  if (!/^-?\d+$/.test(stored)) throw new RangeError(`Not a whole number of cents: ${stored}`);
  const cents = Number(stored);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Too large an amount in cents: ${stored}`);
  return cents;
}

type CentsOf<V> = V extends string ? number : V;

/** A row with the named cents columns as numbers (null stays null). */
export type WithCents<R, K extends keyof R> = { [P in keyof R]: P extends K ? CentsOf<R[P]> : R[P] };

export function withCents<R extends object, K extends keyof R>(row: R, keys: readonly K[]): WithCents<R, K> {
  const out: Record<PropertyKey, unknown> = { ...(row as Record<PropertyKey, unknown>) };
  for (const key of keys) out[key as PropertyKey] = readCents(row[key] as string | null);
  return out as WithCents<R, K>;
}
