import { describe, expect, it } from 'vitest';
import { localFixedWindow } from './local-rate-limit';

describe('the sending limit counted in memory while Redis is away', () => {
  it('lets each user send the limit per window, refuses the next with the seconds left, and starts again with the next window', () => {
    let now = 1_000_000;
    const hit = localFixedWindow({ points: 3, windowSeconds: 60 }, () => now);
    expect([hit('a'), hit('a'), hit('a')].map((r) => r.allowed)).toEqual([true, true, true]);
    now += 15_000;
    expect(hit('a')).toEqual({ allowed: false, retryAfterSeconds: 45, counts: [4] });
    // another user has a window of their own
    expect(hit('b').allowed).toBe(true);
    now += 45_000;
    expect(hit('a')).toEqual({ allowed: true, retryAfterSeconds: 0, counts: [1] });
  });

  it('keeps its memory bounded', () => {
    const hit = localFixedWindow({ points: 1, windowSeconds: 60 }, () => 0, 2);
    hit('a');
    hit('b');
    hit('c');
    // the map was emptied to make room: 'a' starts a new window
    expect(hit('a').allowed).toBe(true);
  });
});
