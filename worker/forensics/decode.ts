import type { TraceVerdict } from '../../domain/forensics/verdict';
import type { ReadBit } from './read-mark';

/**
 * From the bits read off a leak to a buyer (docs/media.md, "Tracing a leak"). Each candidate's own
 * bits for the same segments are recomputed from the key (domain/forensics/code.ts); the one that
 * agrees most is named when so many agreements are beyond chance for every candidate at once, and
 * no second candidate is also beyond chance (two buyers' copies mixed). Pure.
 */

/** Fewer bits than this and nothing is said (20 s of 2 s segments): too little to tell buyers apart. */
export const MIN_BITS = 10;
/** Named only when the chance that any candidate agrees this well at random is at most this. */
const MAX_FALSE_NAMING = 0.001;
/** A runner-up whose own chance is below this also matches: the copy is not one buyer's. */
const RUNNER_UP_SUSPICIOUS = 0.01;

/** P(X >= k) for X ~ Binomial(n, 1/2), exact (n is at most a few hundred). */
export function binomialTail(n: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  // log C(n, i) - n log 2, summed from k to n
  let logC = 0;
  for (let i = 1; i <= k; i++) logC += Math.log((n - i + 1) / i);
  let total = 0;
  let term = logC;
  for (let i = k; i <= n; i++) {
    total += Math.exp(term - n * Math.LN2);
    term += Math.log((n - i) / (i + 1));
  }
  return Math.min(1, total);
}

export function decodeBuyer(bits: readonly ReadBit[], candidates: readonly string[], bitsOf: (candidate: string, segment: number) => 0 | 1): TraceVerdict {
  const n = bits.length;
  if (n < MIN_BITS) {
    return { kind: 'unknown', reason: `Only ${n * 2} s of the leak could be read against this video; at least ${MIN_BITS * 2} s are needed.` };
  }
  if (candidates.length === 0) return { kind: 'unknown', reason: 'Nobody has been given a marked copy of this video yet.' };
  const scored = candidates
    .map((candidate) => ({ candidate, matches: bits.reduce((sum, b) => sum + (bitsOf(candidate, b.segment) === b.bit ? 1 : 0), 0) }))
    .sort((x, y) => y.matches - x.matches);
  const best = scored[0]!;
  const second = scored[1];
  // family-wise: the chance that any of the candidates agrees this well at random
  const chance = Math.min(1, candidates.length * binomialTail(n, best.matches));
  const secondChance = second ? Math.min(1, candidates.length * binomialTail(n, second.matches)) : 1;
  const evidence = `${best.matches} of ${n} segments match this buyer's code; the next best of ${candidates.length} candidates matches ${second ? second.matches : '-'}; chance of a match this good at random ${chance.toExponential(1)}`;
  if (chance > MAX_FALSE_NAMING) {
    return { kind: 'unknown', reason: `No buyer's code matches well enough (best ${best.matches} of ${n} segments).` };
  }
  if (secondChance < RUNNER_UP_SUSPICIOUS) {
    return { kind: 'unknown', reason: `More than one buyer's code matches (${best.matches} and ${second!.matches} of ${n} segments): the copy may mix several buyers' copies.` };
  }
  return { kind: 'identified', userId: best.candidate, confidence: 1 - chance, evidence };
}
