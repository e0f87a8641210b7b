import { formatRand } from './format';

/**
 * Money, the one module where rand become cents and back (issue 45, docs/payments.md "Money in
 * cents"). Amounts are stored and reckoned in whole cents: bigint `*_cents` columns (read with
 * core/db/cents.ts), numbers in the server, the domain and the worker. Rand strings
 * ('1234.50') are only what the API and the screens speak, converted here at that edge (`toCents`,
 * `fromCents`). Every sum, share and discount is worked out in whole cents, never through a float,
 * so sums and shares are exact. tests/unit/float-money.unit.test.ts refuses `* 100`, `/ 100` and
 * float rounding of money anywhere else.
 *
 * The one rounding rule: a percentage of an amount is rounded to the nearest cent, half up (away
 * from zero for a negative amount). A percent off is the percentage that is left to pay
 * (`percentOff(m, 15)` is `percentOf(m, 85)`), so the price a fan pays is what gets rounded and
 * the saving is the rest: 15% off R10.50 is R8.93 (892.5 cents up) wherever it is reckoned.
 */

/** The currencies money may be in: ZAR only today. */
export type Currency = 'ZAR';
export const CURRENCY: Currency = 'ZAR';

/** An amount of money: a whole number of cents (may be negative: a refund, a reversal) and its currency. */
export interface Money {
  readonly cents: number;
  readonly currency: Currency;
}

const CENTS_PER_RAND = 100;

/** Rand as a string ('1234.5', '-40.05') -> whole cents; anything else (a third decimal, '1e3') is a RangeError. */
export function toCents(amount: string): number {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new RangeError(`Not an amount in rand: ${amount}`);
  const cents = Number(match[2]) * CENTS_PER_RAND + Number((match[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Too large an amount in rand: ${amount}`);
  return match[1] ? -cents : cents;
}

/** Whole cents -> rand as the API speaks it: 342820 -> '3428.20', -5 -> '-0.05'; null (no price) stays null. */
export function fromCents(cents: number): string;
export function fromCents(cents: number | null): string | null;
export function fromCents(cents: number | null): string | null {
  if (cents === null) return null;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${(abs - (abs % CENTS_PER_RAND)) / CENTS_PER_RAND}.${String(abs % CENTS_PER_RAND).padStart(2, '0')}`;
}

/** Rand as typed, with exactly two decimals: '49.9' -> '49.90', '050' -> '50.00'. */
export function canonicalRand(amount: string): string {
  return fromCents(toCents(amount));
}

export function moneyOfCents(cents: number, currency: Currency = CURRENCY): Money {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  return { cents, currency };
}

/** '10.50' -> R10.50 */
export function moneyOfRand(amount: string, currency: Currency = CURRENCY): Money {
  return moneyOfCents(toCents(amount), currency);
}

/** A whole number of rand (a limit such as TIP_MIN) as money. */
export function wholeRand(rands: number, currency: Currency = CURRENCY): Money {
  if (!Number.isSafeInteger(rands)) throw new RangeError(`Not a whole number of rand: ${rands}`);
  return moneyOfCents(rands * CENTS_PER_RAND, currency);
}

/** Money -> rand as the API speaks it: '10.50'. */
export function randOf(money: Money): string {
  return fromCents(money.cents);
}

/** As every screen and mail shows it: R3,428.20 (common/format.ts). */
export function formatMoney(money: Money): string {
  return formatRand(randOf(money));
}

/** Whole cents as every screen and mail shows them: 342820 -> R3,428.20. */
export function formatCents(cents: number): string {
  return formatMoney(moneyOfCents(cents));
}

function sameCurrency(a: Money, b: Money): Currency {
  if (a.currency !== b.currency) throw new RangeError(`Money in ${a.currency} and ${b.currency} do not mix`);
  return a.currency;
}

export function addMoney(a: Money, b: Money): Money {
  return moneyOfCents(a.cents + b.cents, sameCurrency(a, b));
}

export function subtractMoney(a: Money, b: Money): Money {
  return moneyOfCents(a.cents - b.cents, sameCurrency(a, b));
}

/** `times` periods of an amount (a bundle of N periods): an integer factor only. */
export function multiplyMoney(money: Money, times: number): Money {
  if (!Number.isSafeInteger(times)) throw new RangeError(`Money is multiplied by a whole number, not ${times}`);
  return moneyOfCents(money.cents * times, money.currency);
}

/** Negative, zero or positive as a is less than, equal to or more than b. */
export function compareMoney(a: Money, b: Money): number {
  sameCurrency(a, b);
  return a.cents - b.cents;
}

/** numerator / denominator (denominator > 0) to the nearest integer, half away from zero, exactly. */
function divideRounded(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator)) throw new RangeError(`Too large an amount: ${numerator}`);
  const abs = Math.abs(numerator);
  const rest = abs % denominator;
  const quotient = (abs - rest) / denominator + (2 * rest >= denominator ? 1 : 0);
  return numerator < 0 ? 0 - quotient : quotient; // 0 - 0 is 0, never -0
}

function checkPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`Not a whole percent from 0 to 100: ${percent}`);
}

/** `percent` (whole, 0..100) of an amount, rounded half up to the cent: the platform's fee. */
export function percentOf(money: Money, percent: number): Money {
  checkPercent(percent);
  return moneyOfCents(divideRounded(money.cents * percent, 100), money.currency);
}

/**
 * The amount less `percent` (whole, 0..100): what is left to pay, rounded half up to the cent.
 * The one percent-off rule of tier discounts, offers, bundles and the browser's previews.
 */
export function percentOff(money: Money, percent: number): Money {
  checkPercent(percent);
  return percentOf(money, 100 - percent);
}

/**
 * An amount split in proportion to whole, non-negative `weights` (not all zero), the parts adding
 * up to the amount to the cent: each part is rounded down, and the cents left over go one each to
 * the parts with the largest remainders (the first of equal ones first).
 */
export function allocateMoney(money: Money, weights: readonly number[]): Money[] {
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError(`Weights are whole and not negative: ${weights.join(', ')}`);
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (total === 0) throw new RangeError('At least one weight is more than zero');
  const abs = Math.abs(money.cents);
  const parts = weights.map((w) => {
    const product = abs * w;
    if (!Number.isSafeInteger(product)) throw new RangeError(`Too large an amount to split: ${money.cents}`);
    const rest = product % total;
    return { cents: (product - rest) / total, rest };
  });
  let left = abs - parts.reduce((sum, p) => sum + p.cents, 0);
  const order = parts.map((_, i) => i).sort((a, b) => parts[b]!.rest - parts[a]!.rest || a - b);
  for (const i of order) {
    if (left === 0) break;
    parts[i]!.cents += 1;
    left -= 1;
  }
  return parts.map((p) => moneyOfCents(money.cents < 0 ? 0 - p.cents : p.cents, money.currency));
}
