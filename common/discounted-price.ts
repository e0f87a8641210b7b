/**
 * Spec: discounted = price − price × percent / 100, shown with 2 decimals. A module of its own,
 * without the billing schemas: the browser shows tier prices on a profile's first screen, where
 * building those schemas was a long task on a slow phone (issue 30: total blocking time).
 */
export function discountedPrice(price: string | number, discountPercentage: number | null | undefined): string {
  const cents = Math.round(Number(price) * 100);
  const pct = discountPercentage ?? 0;
  return (Math.round(cents - (cents * pct) / 100) / 100).toFixed(2);
}
