import { fromCents } from '../../common/money';
import { readCents } from '../../core/db/cents';

/** A stored cents column as rand, as the tests' expectations read best: '1050' -> '10.50'; null stays null. */
export function storedRand(stored: string): string;
export function storedRand(stored: string | null): string | null;
export function storedRand(stored: string | null): string | null {
  return fromCents(readCents(stored));
}
