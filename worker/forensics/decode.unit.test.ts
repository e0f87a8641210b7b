import { describe, expect, it } from 'vitest';
import { markBit } from '../../domain/forensics/code';
import { binomialTail, decodeBuyer } from './decode';

const key = Buffer.alloc(32, 7);
const bitsOf = (viewerId: string, segment: number) => markBit(key, { postId: 'p', position: 0, viewerId, segment });
const fans = Array.from({ length: 10 }, (_, i) => `fan-${i}`);
/** 30 segments read from fan-3's copy, with `errors` of them read wrong */
const readFrom = (fan: string, errors: number) =>
  Array.from({ length: 30 }, (_, i) => {
    const bit = bitsOf(fan, i + 5);
    return { segment: i + 5, bit: (i < errors ? 1 - bit : bit) as 0 | 1, lean: 1 };
  });

describe('decoding the buyer from the bits of a leak', () => {
  it('computes the binomial tail exactly', () => {
    expect(binomialTail(30, 0)).toBe(1);
    expect(binomialTail(30, 30)).toBeCloseTo(2 ** -30, 15);
    expect(binomialTail(4, 3)).toBeCloseTo(5 / 16, 12);
  });

  it('names the one fan whose code the leak carries, with a confidence, even with bits read wrong', () => {
    const verdict = decodeBuyer(readFrom('fan-3', 3), fans, bitsOf);
    expect(verdict).toMatchObject({ kind: 'identified', userId: 'fan-3' });
    expect(verdict.kind === 'identified' && verdict.confidence).toBeGreaterThan(0.999);
  });

  it('says it cannot when the leak is too short, nobody matches, or the copy matches nobody on the list', () => {
    expect(decodeBuyer(readFrom('fan-3', 0).slice(0, 5), fans, bitsOf)).toMatchObject({ kind: 'unknown' });
    expect(decodeBuyer(readFrom('someone-else', 0), fans, bitsOf)).toMatchObject({ kind: 'unknown' });
    expect(decodeBuyer(readFrom('fan-3', 0), [], bitsOf)).toMatchObject({ kind: 'unknown' });
  });

  it('gives two fans different codes', () => {
    const a = Array.from({ length: 64 }, (_, i) => bitsOf('fan-1', i));
    const b = Array.from({ length: 64 }, (_, i) => bitsOf('fan-2', i));
    expect(a).not.toEqual(b);
  });
});
