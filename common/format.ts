/** Money is numeric(10,2) in the database and a decimal string on the wire: R150.00. */
export function formatRand(amount: string | number): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  return `R${value.toFixed(2)}`;
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
