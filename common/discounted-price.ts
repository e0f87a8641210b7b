import { moneyOfRand, percentOff, randOf } from './money';

/**
 * Spec: discounted = price − price × percent / 100, shown with 2 decimals: the one percent-off rule
 * (common/money.ts: what is left to pay, rounded half up to the cent). A module of its own,
 * without the billing schemas: the browser shows tier prices on a profile's first screen, where
 * building those schemas was a long task on a slow phone (issue 30: total blocking time).
 */
export function discountedPrice(price: string | number, discountPercentage: number | null | undefined): string {
  return randOf(percentOff(moneyOfRand(String(price)), discountPercentage ?? 0));
}
