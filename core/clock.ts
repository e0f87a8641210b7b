/**
 * Where billing code reads the time: the subscribe path, the maintenance job and the webhooks
 * take a clock instead of calling `new Date()`, so tests move it and watch a subscription renew,
 * fall past due, lapse and expire without waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that says `at` until moved (tests). */
export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    set(next) {
      current = new Date(next);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}
