import { describe, expect, it } from 'vitest';
import { perSecondLimiter } from './socket-server';

describe('perSecondLimiter', () => {
  it('allows 10 a second, reports the first excess once, and starts again next second', () => {
    let now = 1_000;
    const limiter = perSecondLimiter(10, () => now);
    const first = Array.from({ length: 13 }, () => limiter());
    expect(first.filter((v) => v === 'ok')).toHaveLength(10);
    expect(first.slice(10)).toEqual(['first-over', 'over', 'over']);
    now += 999;
    expect(limiter()).toBe('over');
    now += 1;
    expect(limiter()).toBe('ok');
  });
});
