/**
 * Money as every screen and mail shows it: R3,428.20 (issue 22). Money is whole cents in the
 * database and a decimal string of rand on the wire (common/money.ts); the string is formatted as
 * it is (no float on the way), a number (a chart's value) is rounded to cents first. `whole`: no
 * cents (a chart's axis).
 */
export function formatRand(amount: string | number, { whole = false }: { whole?: boolean } = {}): string {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim();
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return `R${text}`;
  const [, minus = '', int = '', frac = ''] = match;
  let cents = frac.padEnd(2, '0');
  let units = int.replace(/^0+(?=\d)/, '') || '0';
  if (cents.length > 2) {
    // more than two decimals (never from the database): round half up, carrying into the units
    const rounded = (BigInt(units + cents.slice(0, 2)) + (Number(cents[2]) >= 5 ? 1n : 0n)).toString().padStart(3, '0');
    units = rounded.slice(0, -2);
    cents = rounded.slice(-2);
  }
  const grouped = units.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = minus && /[1-9]/.test(units + cents);
  return `${negative ? '-' : ''}R${grouped}${whole ? '' : `.${cents}`}`;
}

/** A ledger amount that may be negative (a refund, a chargeback): −R40.00, with a true minus sign. */
export function formatSignedRand(amount: string): string {
  return amount.trim().startsWith('-') ? `−${formatRand(amount.trim().slice(1))}` : formatRand(amount);
}

/** Subscriber counts like the spec's cards: 950, 2.3k, 8.5k, 12k, 1.2M. */
export function formatCompactCount(count: number): string {
  if (count < 1000) return String(count);
  const [divisor, suffix] = count < 1_000_000 ? [1000, 'k'] : [1_000_000, 'M'];
  const scaled = count / divisor;
  // One decimal below 10 (8.5k), none from 10 (12k); truncate so 9,990 reads 9.9k, never 10.0k.
  const text = scaled < 10 ? (Math.floor(scaled * 10) / 10).toFixed(1).replace(/\.0$/, '') : String(Math.floor(scaled));
  return `${text}${suffix}`;
}

/** The unread badge shows 99+ above 99. */
export function formatBadgeCount(count: number, max = 99): string {
  return count > max ? `${max}+` : String(count);
}
