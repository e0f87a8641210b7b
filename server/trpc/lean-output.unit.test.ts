import superjson from 'superjson';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leanOutput } from './lean-output';

/**
 * The lean output must write what superjson writes (the client decodes it with superjson), and
 * must do it itself for the answers the lists give: plain data, Dates, an object met twice.
 */
describe('leanOutput', () => {
  afterEach(() => vi.restoreAllMocks());

  const media = { url: '/media/p1/web', width: 1280, height: 720, duration: null, position: 0 };
  const page = {
    items: [
      {
        id: 'p1',
        createdAt: new Date('2026-11-20T10:00:00.123Z'),
        publishAt: null,
        hashtags: ['a', 'b'],
        counts: { likes: 3, comments: 0, bookmarks: 1.5 },
        viewer: { liked: true, bookmarked: false },
        media,
        files: [media, { ...media, position: 1, url: '/media/p1/1/web' }],
        'odd.key\\name': new Date(0),
      },
      { id: 'p2', createdAt: new Date('2026-11-19T10:00:00Z'), publishAt: new Date('2026-12-01T00:00:00Z'), media: null, files: [] },
    ],
    nextCursor: { createdAt: '2026-11-19T10:00:00.000000Z', id: 'p2' },
  };
  const sharedDate = new Date(5);

  it.each([
    ['a page of post cards (Dates, nulls, an object met twice, a key with a dot)', page],
    ['a Date on its own', new Date(7)],
    ['one Date met twice', { a: sharedDate, b: [sharedDate] }],
    ['a nested object met twice inside one met twice', (() => { const inner = { d: new Date(9) }; const outer = { inner }; return { x: outer, y: [outer], z: inner }; })()],
    ['plain values', { n: 1, s: 'x', b: false, z: null, list: [1, [2, [3]]], empty: {}, none: [] }],
    ['a string', 'text'],
    ['null', null],
  ])('writes %s exactly as superjson does, without calling it', (_label, value) => {
    const expected = superjson.serialize(value);
    const spy = vi.spyOn(superjson, 'serialize');
    const written = leanOutput.serialize(value);
    expect(spy).not.toHaveBeenCalled();
    expect(JSON.stringify(written)).toBe(JSON.stringify(expected));
    expect(superjson.deserialize(JSON.parse(JSON.stringify(written)))).toEqual(value);
  });

  class Money {
    constructor(public cents: number) {}
  }
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;

  it.each([
    ['undefined', undefined],
    ['an undefined property', { a: undefined, b: 1 }],
    ['a Map', { m: new Map([['k', 1]]) }],
    ['a Set', [new Set([1])]],
    ['a bigint', { n: 10n }],
    ['NaN', { n: Number.NaN }],
    ['-0', { n: -0 }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['an invalid Date', { d: new Date('nope') }],
    ['a class instance', { price: new Money(5) }],
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is tested
    ['a sparse array', [1, , 3]],
    ['a cycle', cycle],
  ])('hands %s to superjson whole', (_label, value) => {
    const expected = superjson.serialize(value);
    const spy = vi.spyOn(superjson, 'serialize');
    expect(leanOutput.serialize(value)).toEqual(expected);
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
