import { moneyOfCents, percentOff } from './money';

/**
 * Spec: discounted = price − price × percent / 100, to the cent: the one percent-off rule
 * (common/money.ts: what is left to pay, rounded half up to the cent), in whole cents. A module
 * of its own, without the billing schemas: the browser shows tier prices on a profile's first
 * screen, where building those schemas was a long task on a slow phone (issue 30: total blocking time).
 */
export function discountedPrice(priceCents: number, discountPercentage: number | null | undefined): number {
  return percentOff(moneyOfCents(priceCents), discountPercentage ?? 0).cents;
}
